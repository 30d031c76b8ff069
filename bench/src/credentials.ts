/**
 * Credentials the bench configures its own servers and clients with. They are made up, long
 * and distinctive, so the soak test can scan every log line and error message for them.
 */
export const benchCredentials = {
  approvals: { clientId: 'bench-approvals-client', clientSecret: 'approvals-secret-5d1f0c7e9a3b' },
};

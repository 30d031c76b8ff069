/**
 * The parts of `@partner-apis/sandbox` the bench uses. Declared here rather than imported so the
 * bench still builds, and skips what needs the sandbox, in a checkout without it.
 */
export interface PortalCredentials {
  clientId: string;
  clientSecret: string;
  subscriptionKeys: { primary: string; secondary: string };
}

export interface SandboxInfo {
  urls: {
    tokenUrl: string;
    exposure: string;
    riskEngineering: string;
    liability: string;
    approvals: string;
  };
  credentials: {
    exposure: PortalCredentials;
    riskEngineering: PortalCredentials;
    liability: { clientId: string; clientSecret: string };
    approvals: { clientId: string; clientSecret: string; tier: 'bronze' | 'silver' | 'gold' };
  };
  fixtures: { employeeWithApprovals: string; employeesWithNothingOutstanding: readonly string[] };
}

export interface RouteStats {
  requests: number;
  tokenIssues: number;
  unauthorized: number;
  tooManyRequests: number;
  faults: number;
  statuses: Record<string, number>;
}

export interface SandboxStats {
  totals: RouteStats;
  routes: Record<string, RouteStats>;
}

export interface Sandbox extends SandboxInfo {
  stats(): SandboxStats;
  close(): Promise<void>;
  [method: string]: unknown;
}

export interface SandboxModule {
  startSandbox(options: Record<string, unknown>): Promise<Sandbox>;
}

/**
 * The parts of the service packages and of `@partner-apis/core` the bench uses, by their public
 * names. Declared here rather than imported so the bench builds, and skips the rows that need
 * them, in a checkout where a package does not exist yet.
 */
type Options = Record<string, unknown>;

export interface PagedResource {
  list(options?: Options): AsyncIterable<Record<string, unknown>>;
  page(options?: Options): Promise<Record<string, unknown>[]>;
}

export interface ExposureClient {
  locations: PagedResource;
  statementOfValues: { submit(portfolio: unknown): Promise<unknown> };
}

export interface RiskEngineeringClient {
  gradings: PagedResource;
  locations: PagedResource;
}

export interface LiabilityClient {
  sellers: { create(seller: unknown, options?: Options): Promise<Record<string, unknown>> };
  quotes: {
    create(quote: unknown, options?: Options): Promise<Record<string, unknown>>;
    search(filters?: Options): Promise<unknown>;
    get(quoteId: string): Promise<unknown>;
  };
}

export interface ApprovalsClient {
  approvals: { list(employeeNumber: string): Promise<unknown> };
}

export interface ExposureModule {
  createExposureClient(options: Options): ExposureClient;
}
export interface RiskEngineeringModule {
  createRiskEngineeringClient(options: Options): RiskEngineeringClient;
}
export interface LiabilityModule {
  createLiabilityClient(options: Options): LiabilityClient;
}
export interface ApprovalsModule {
  createApprovalsClient(options: Options): ApprovalsClient;
}

export interface CoreModule {
  createClientPipeline(options: Options): {
    fetch(request: Request): Promise<Response>;
    baseUrl: string;
  };
  paginate<Item>(options: Options): AsyncIterable<Item>;
}

export interface AuthModule {
  oauth2ClientCredentials(options: Options): unknown;
}

/** What a company registry says about one registration number. */
export interface RegistryCompany {
  legalName: string;
  /** The number as the registry writes it. */
  registrationNumber: string;
  /** YYYY-MM-DD; null when the registry does not say. */
  dateIncorporated: string | null;
  /** The registry's own words (Active, Dissolved, In Liquidation…). */
  status: string | null;
  registeredAddress: string | null;
  /** Share capital as the registry writes it; null when it does not publish one. */
  capital: string | null;
  companyType: string | null;
  /** Current officers (directors, secretaries…) the registry lists. */
  officers: Array<{ name: string; position: string | null }>;
}

export interface RegistryQuery {
  registrationNumber: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** The name the business declared (the sandbox answers with it). */
  businessName: string;
  /** 1 for the first lookup of this business, 2 for the first retry… */
  attempt: number;
}

export type RegistryAnswer =
  | { outcome: 'FOUND'; company: RegistryCompany }
  | { outcome: 'NOT_FOUND' }
  /** The registry could not answer (down, slow, refused, unreadable): try again later. */
  | { outcome: 'UNAVAILABLE'; reason: string };

/** A company registry. `lookup` never throws: a failure of any kind is UNAVAILABLE with its reason. */
export interface BusinessRegistry {
  readonly name: string;
  lookup(query: RegistryQuery): Promise<RegistryAnswer>;
}

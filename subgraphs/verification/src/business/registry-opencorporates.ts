import type { BusinessRegistry, RegistryAnswer, RegistryCompany, RegistryQuery } from './registry.js';

export const OPENCORPORATES = 'opencorporates';

/** An answer larger than this is not a company record: unavailable. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

export interface OpenCorporatesOptions {
  /** https://api.opencorporates.com, or a local fake. */
  apiUrl: string;
  /** Sent as `api_token` when set (OpenCorporates needs one beyond its anonymous allowance). */
  apiToken?: string;
  timeoutMs: number;
}

interface CompanyAnswer {
  results?: {
    company?: {
      name?: unknown;
      company_number?: unknown;
      incorporation_date?: unknown;
      company_type?: unknown;
      current_status?: unknown;
      inactive?: unknown;
      registered_address_in_full?: unknown;
      officers?: unknown;
    };
  };
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * OpenCorporates' company endpoint (API v0.4): `GET {base}/v0.4/companies/{jurisdiction_code}/{company_number}?api_token=…`,
 * the jurisdiction being the country code in lower case (`ke`, `gb`, `za`). 200 with
 * `results.company` → found; 404 → not found; anything else (401/403 for a refused token or an
 * exhausted allowance, 429, 5xx, a timeout, a refused connection, an answer that is not a company
 * record) → unavailable, retried later. The token never appears in a reason.
 */
export class OpenCorporatesRegistry implements BusinessRegistry {
  readonly name = OPENCORPORATES;

  constructor(private readonly opts: OpenCorporatesOptions) {}

  async lookup(q: RegistryQuery): Promise<RegistryAnswer> {
    const url = new URL(
      `v0.4/companies/${encodeURIComponent(q.country.toLowerCase())}/${encodeURIComponent(q.registrationNumber)}`,
      this.opts.apiUrl.endsWith('/') ? this.opts.apiUrl : `${this.opts.apiUrl}/`,
    );
    if (this.opts.apiToken) url.searchParams.set('api_token', this.opts.apiToken);
    let status: number;
    let body: string;
    try {
      const res = await fetch(url, {
        headers: { accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      status = res.status;
      const length = Number(res.headers.get('content-length') ?? 0);
      if (length > MAX_ANSWER_BYTES) {
        await res.body?.cancel();
        return unavailable(`answer of ${length} bytes`);
      }
      body = await res.text();
    } catch (err) {
      const e = err as Error;
      return unavailable(e.name === 'TimeoutError' ? `no answer within ${this.opts.timeoutMs} ms` : `request failed (${e.name})`);
    }
    if (status === 404) return { outcome: 'NOT_FOUND' };
    if (status !== 200) return unavailable(`HTTP ${status}`);
    if (body.length > MAX_ANSWER_BYTES) return unavailable(`answer of ${body.length} characters`);
    let parsed: CompanyAnswer;
    try {
      parsed = JSON.parse(body) as CompanyAnswer;
    } catch {
      return unavailable('the answer is not JSON');
    }
    const company = parsed?.results?.company;
    const legalName = text(company?.name);
    if (!company || !legalName) return unavailable('the answer holds no company record');
    return { outcome: 'FOUND', company: toCompany(company, legalName, q.registrationNumber) };
  }
}

function unavailable(reason: string): RegistryAnswer {
  return { outcome: 'UNAVAILABLE', reason: `opencorporates: ${reason}` };
}

function toCompany(c: NonNullable<NonNullable<CompanyAnswer['results']>['company']>, legalName: string, asked: string): RegistryCompany {
  const date = text(c.incorporation_date);
  const officers = Array.isArray(c.officers) ? c.officers : [];
  return {
    legalName,
    registrationNumber: text(c.company_number) ?? asked,
    dateIncorporated: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null,
    status: text(c.current_status) ?? (c.inactive === true ? 'Inactive' : null),
    registeredAddress: text(c.registered_address_in_full),
    // OpenCorporates publishes no share capital
    capital: null,
    companyType: text(c.company_type),
    officers: officers
      .map((o) => (o && typeof o === 'object' ? (o as { officer?: Record<string, unknown> }).officer : undefined))
      .filter((o): o is Record<string, unknown> => Boolean(o && text(o.name) && !text(o.end_date)))
      .slice(0, 100)
      .map((o) => ({ name: text(o.name)!, position: text(o.position) })),
  };
}

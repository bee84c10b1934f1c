import { Injectable } from '@nestjs/common';
import type { CdsClientJson } from '@cds/contracts';
import { importJWK } from 'jose';
import { conflict, notFound, validationFailed } from '../../common/errors';
import type { CdsClient } from './cds-client.entity';
import { CdsHooksRepository, type VerifiableClient } from './cds-hooks.repository';
import type { CdsClientDto } from './cds-client.dto';
import { CLIENT_JWT_ALGORITHMS, jwkAlgorithm } from './jwk-algorithm';

const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

/** Administrators register the EHRs that may call the CDS Hooks services, and the key each signs with. */
@Injectable()
export class CdsClientsService {
  constructor(private readonly repo: CdsHooksRepository) {}

  async list(): Promise<CdsClientJson[]> {
    const rows = await this.repo.listClients();
    return rows.map(toJson);
  }

  async get(id: string): Promise<CdsClientJson> {
    return toJson(await this.row(id));
  }

  async create(dto: CdsClientDto): Promise<CdsClientJson> {
    const fields = await checked(dto);
    if (await this.repo.findClient({ issuer: fields.issuer }))
      throw conflict(`A CDS client with issuer ${fields.issuer} is already registered`);
    return toJson(await this.repo.saveClient(fields));
  }

  async update(id: string, dto: CdsClientDto): Promise<CdsClientJson> {
    const row = await this.row(id);
    const fields = await checked(dto);
    const other = await this.repo.findClient({ issuer: fields.issuer });
    if (other && other.id !== id) throw conflict(`A CDS client with issuer ${fields.issuer} is already registered`);
    return toJson(await this.repo.saveClient(Object.assign(row, fields)));
  }

  async remove(id: string): Promise<void> {
    await this.row(id);
    await this.repo.deleteClient(id);
  }

  /** The active client with this issuer, if any (the JWT verifier's look-up, on every hook call). */
  byIssuer(issuer: string): Promise<VerifiableClient | null> {
    return this.repo.activeClient(issuer);
  }

  private async row(id: string): Promise<CdsClient> {
    const row = await this.repo.findClient({ id });
    if (!row) throw notFound('CDS client');
    return row;
  }
}

/** Exactly one key source, and a JWK that is a usable public key (never a private or symmetric one). */
async function checked(dto: CdsClientDto) {
  const jwksUrl = dto.jwks_url || null;
  const jwk = dto.jwk ?? null;
  if ((jwksUrl === null) === (jwk === null))
    throw validationFailed([{ field: 'jwks_url', message: 'Give exactly one of jwks_url or jwk (the public key the client signs with)' }]);
  if (jwk) {
    if (PRIVATE_JWK_MEMBERS.some((m) => m in jwk) || (jwk.kty !== 'RSA' && jwk.kty !== 'EC'))
      throw validationFailed([{ field: 'jwk', message: 'jwk must be a public RSA or EC key (no private or symmetric key material)' }]);
    const alg = jwkAlgorithm(jwk);
    if (alg === undefined)
      throw validationFailed([
        { field: 'jwk.alg', message: `jwk.alg is required for an ${String(jwk.kty)} key: one of ${CLIENT_JWT_ALGORITHMS.join(', ')}` },
      ]);
    if (!(CLIENT_JWT_ALGORITHMS as readonly string[]).includes(alg))
      throw validationFailed([{ field: 'jwk.alg', message: `jwk.alg must be one of ${CLIENT_JWT_ALGORITHMS.join(', ')}` }]);
    try {
      await importJWK(jwk as never, alg);
    } catch (e) {
      throw validationFailed([{ field: 'jwk', message: `jwk is not a usable public key: ${(e as Error).message}` }]);
    }
  }
  return {
    issuer: dto.issuer.trim(),
    name: dto.name.trim(),
    jwks_url: jwksUrl,
    jwk,
    allowed_services: [...new Set(dto.allowed_services)],
    allowed_fhir_servers: [...new Set((dto.allowed_fhir_servers ?? []).map(fhirBase))],
    is_active: dto.is_active ?? true,
  };
}

/** A FHIR base URL as compared with a hook request's fhirServer: without trailing slashes. */
export const fhirBase = (url: string) => url.trim().replace(/\/+$/, '');

function toJson(r: CdsClient): CdsClientJson {
  return {
    id: r.id,
    issuer: r.issuer,
    name: r.name,
    jwks_url: r.jwks_url,
    jwk: r.jwk,
    allowed_services: r.allowed_services,
    allowed_fhir_servers: r.allowed_fhir_servers,
    is_active: r.is_active,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

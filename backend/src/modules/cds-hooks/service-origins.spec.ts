import { loadConfig } from '../../config/app-config';
import { linkOrigin, serviceOrigins } from './service-origins';

const local = { publicUrl: 'http://localhost:3000', publicUrlConfigured: false, allowedOrigins: [] };

describe('the origins a CDS Hooks client JWT may name, and the one card links use', () => {
  it('PUBLIC_URL alone when it is set, whatever else is configured', () => {
    expect(
      serviceOrigins({ publicUrl: 'https://CDS.example.org/', publicUrlConfigured: true, allowedOrigins: ['https://other.example'] }, 3000),
    ).toEqual(['https://cds.example.org']);
  });

  it('without PUBLIC_URL: ALLOWED_ORIGINS first, then localhost and 127.0.0.1 on the listening port', () => {
    expect(serviceOrigins({ ...local, allowedOrigins: ['https://cds.clinic.example'] }, 41234)).toEqual([
      'https://cds.clinic.example',
      'http://localhost:41234',
      'http://127.0.0.1:41234',
    ]);
  });

  it('links follow the origin the request arrived on only when it is allowed', () => {
    const origins = serviceOrigins({ ...local, allowedOrigins: ['https://cds.clinic.example'] }, 3000);
    expect(linkOrigin(origins, 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(linkOrigin(origins, 'https://CDS.clinic.example:443')).toBe('https://cds.clinic.example');
    expect(linkOrigin(origins, 'https://evil.example')).toBe('https://cds.clinic.example');
    expect(linkOrigin(origins, 'http://[broken')).toBe('https://cds.clinic.example');
    expect(linkOrigin(origins, undefined)).toBe('https://cds.clinic.example');
  });
});

describe('ALLOWED_ORIGINS', () => {
  const env = { JWT_SECRET: 'x'.repeat(32), DATABASE_URL: 'postgres://localhost/x' };
  it('is read as normalised origins', () => {
    expect(loadConfig({ ...env, ALLOWED_ORIGINS: 'https://CDS.clinic.example:443/, http://10.0.0.5:8080' }).allowedOrigins).toEqual([
      'https://cds.clinic.example',
      'http://10.0.0.5:8080',
    ]);
  });
  it.each(['cds.clinic.example', 'ftp://cds.clinic.example', 'https://cds.clinic.example/api', 'https://[::1'])(
    '%s stops start-up naming the variable',
    (value) => {
      expect(() => loadConfig({ ...env, ALLOWED_ORIGINS: value })).toThrow(/ALLOWED_ORIGINS/);
    },
  );
});

import { isAllowedSource } from './import-sources';

describe('isAllowedSource', () => {
  const bases = ['https://fhir.clinic.example.org/r4', 'http://127.0.0.1:8080/'];

  it.each([
    ['https://fhir.clinic.example.org/r4/Patient.ndjson', true],
    ['https://fhir.clinic.example.org/r4', true],
    ['https://fhir.clinic.example.org/r4/export/1/Observation.ndjson?page=2', true],
    ['http://127.0.0.1:8080/anything.ndjson', true],
    // Same host, another path; a prefix that is not a path segment; another scheme, port or host.
    ['https://fhir.clinic.example.org/admin/Patient.ndjson', false],
    ['https://fhir.clinic.example.org/r4x/Patient.ndjson', false],
    ['http://fhir.clinic.example.org/r4/Patient.ndjson', false],
    ['https://fhir.clinic.example.org:8443/r4/Patient.ndjson', false],
    ['https://fhir.clinic.example.org.evil.example/r4/Patient.ndjson', false],
    ['http://127.0.0.1:8081/anything.ndjson', false],
    ['http://localhost:8080/anything.ndjson', false],
    // Credentials in the URL, other schemes, and what is not a URL.
    ['https://user:pw@fhir.clinic.example.org/r4/Patient.ndjson', false],
    ['file:///etc/passwd', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isAllowedSource(url, bases)).toBe(expected);
  });

  it('allows nothing without an allow-list', () => {
    expect(isAllowedSource('https://fhir.clinic.example.org/r4/Patient.ndjson', [])).toBe(false);
  });
});

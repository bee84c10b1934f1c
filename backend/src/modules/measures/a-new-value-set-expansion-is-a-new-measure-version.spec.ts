import { CMS122 } from './cms122';
import { CMS951 } from './cms951';
import { measureVersion } from './measure-version';
import { valueSetsOf } from './measure-content';

// Stored results are current only for the measure version they were computed under (issue 21).
const codes = (m: typeof CMS122, extra: Record<string, string[]> = {}) =>
  new Map(valueSetsOf(m).map((url) => [url, [`http://loinc.org|${url.length}`, ...(extra[url] ?? [])]]));

describe('measureVersion', () => {
  it('is the same for the same model and the same codes, whatever order the codes come in', () => {
    const a = codes(CMS122);
    const b = new Map([...a].reverse().map(([u, c]) => [u, [...c].reverse()]));
    expect(measureVersion(CMS122, a)).toBe(measureVersion(CMS122, b));
    expect(measureVersion(CMS122, a)).toMatch(/^CMS122-[0-9a-f]{24}$/);
  });

  it('changes when a value set the measure names gains a code', () => {
    const url = valueSetsOf(CMS122)[0];
    expect(measureVersion(CMS122, codes(CMS122, { [url]: ['http://loinc.org|99999-9'] }))).not.toBe(measureVersion(CMS122, codes(CMS122)));
  });

  it('does not change for a value set the measure does not name', () => {
    expect(measureVersion(CMS122, new Map([...codes(CMS122), ['http://example.org/other', ['x|y']]]))).toBe(
      measureVersion(CMS122, codes(CMS122)),
    );
  });

  it('changes when the model changes (a rule edited and published)', () => {
    const edited = { ...CMS122, model: { ...CMS122.model, rules: CMS122.model.rules.slice(1) } };
    expect(measureVersion(edited, codes(CMS122))).not.toBe(measureVersion(CMS122, codes(CMS122)));
    expect(measureVersion(CMS951, codes(CMS951))).not.toBe(measureVersion(CMS122, codes(CMS122)));
  });
});

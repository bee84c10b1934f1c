import { assertSafeInput, jsonDepthWithin, markIfSafeText, MAX_JSON_DEPTH, verifyJsonDepth } from './input-safety';

const refusal = (value: unknown, field = '') => {
  try {
    assertSafeInput(value, field);
  } catch (e) {
    return (e as { details?: unknown }).details;
  }
  return undefined;
};

describe('jsonDepthWithin', () => {
  const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it('reads the UTF-8 bytes as it reads the text: brackets inside strings, escapes and multi-byte characters do not count', () => {
    for (const text of [
      nested(MAX_JSON_DEPTH),
      nested(MAX_JSON_DEPTH + 1),
      `{"a":"[[[[\\"ü€𝄞${'['.repeat(40)}"}`,
      `[${nested(MAX_JSON_DEPTH)}]`,
    ]) {
      expect(jsonDepthWithin(Buffer.from(text, 'utf8'))).toBe(jsonDepthWithin(text));
    }
    expect(jsonDepthWithin(Buffer.from(nested(MAX_JSON_DEPTH)))).toBe(true);
    expect(jsonDepthWithin(Buffer.from(nested(MAX_JSON_DEPTH + 1)))).toBe(false);
    expect(jsonDepthWithin(Buffer.from(`{"mmol/mol ü":"${'['.repeat(40)}"}`))).toBe(true);
  });

  it('the body-parser hook refuses a body nested too deeply as a 400', () => {
    expect(() => verifyJsonDepth(null, null, Buffer.from(nested(MAX_JSON_DEPTH + 1)))).toThrow(
      expect.objectContaining({ status: 400, type: 'entity.too.deep' }),
    );
    expect(() => verifyJsonDepth(null, null, Buffer.from(nested(3)))).not.toThrow();
  });
});

describe('assertSafeInput', () => {
  it('names the field of a NUL, a lone surrogate or a prototype key, however deep', () => {
    expect(refusal({ prefetch: { obs: { entry: [{ resource: { note: 'a\u0000b' } }] } } })).toEqual([
      { field: 'prefetch.obs.entry.0.resource.note', message: 'prefetch.obs.entry.0.resource.note must not contain NUL characters' },
    ]);
    expect(refusal({ items: ['ok', 'x\uD800'] })).toEqual([{ field: 'items.1', message: 'items.1 must be well-formed Unicode text' }]);
    expect(refusal(JSON.parse('{"a":[{"__proto__":{"admin":true}}]}'))).toEqual([
      { field: 'a.0.__proto__', message: "Unknown field 'a.0.__proto__'" },
    ]);
    expect(refusal({ ['k\u0000']: 1 })).toEqual([{ field: 'k\u0000', message: 'k\u0000 must not contain NUL characters' }]);
    expect(refusal('a\u0000', 'q')).toEqual([{ field: 'q', message: 'q must not contain NUL characters' }]);
    expect(refusal('a\u0000')).toEqual([{ field: '', message: 'value must not contain NUL characters' }]);
    expect(refusal({ filter: { a: 'x\uDC00' } }, 'query')).toEqual([
      { field: 'query.filter.a', message: 'query.filter.a must be well-formed Unicode text' },
    ]);
  });

  it('passes what is safe, and leaves the walk with no trace for the next problem', () => {
    expect(refusal({ a: [1, null, true, 'ü€𝄞', { b: [] }], c: 'x' })).toBeUndefined();
    expect(refusal({ a: [{ ok: 1 }, { ok: 2 }], b: { c: 'x\u0000' } })).toEqual([
      { field: 'b.c', message: 'b.c must not contain NUL characters' },
    ]);
  });

  it('refuses nesting deeper than MAX_JSON_DEPTH with the field named', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < MAX_JSON_DEPTH + 2; i++) deep = { d: deep };
    expect(refusal(deep)).toEqual([expect.objectContaining({ message: expect.stringContaining('is nested too deeply') })]);
  });
});

describe('markIfSafeText', () => {
  const texts = [
    '{"a":[1,null,true,"ü€𝄞",{"b":[]}],"c":"x"}',
    '{"a":"x\\u0000"}',
    '{"a":{"b":"\\ud800x"}}',
    '{"a":"\\ud83d\\ude00"}',
    '{"__proto__":{"admin":true}}',
    '{"a":{"constructor":1}}',
    '{"prototype":1}',
    '{"\\u005f_proto__":1}',
    '{"text":"the constructor of the prototype"}',
    '[{"a":"\\\\u0000"}]',
  ];

  it('a body whose text is marked gets the refusal the walk gives it: marking never lets a NUL, lone surrogate or prototype key through', () => {
    for (const text of texts) {
      const marked = JSON.parse(text);
      markIfSafeText(text, marked);
      expect([text, refusal(marked)]).toEqual([text, refusal(JSON.parse(text))]);
    }
  });

  it('a body with no escape and no prototype key is not walked again', () => {
    const text = '{"prefetch":{"patient":{"resourceType":"Patient","id":"p1"}}}';
    const parsed = JSON.parse(text) as { prefetch: { note?: string } };
    markIfSafeText(text, parsed);
    // Only the server could change a parsed body; the mark is for the text it was parsed from.
    parsed.prefetch.note = 'x\u0000';
    expect(refusal(parsed)).toBeUndefined();
    expect(refusal(JSON.parse(text.replace('"p1"', '"p\\u0000"')))).toEqual([
      { field: 'prefetch.patient.id', message: 'prefetch.patient.id must not contain NUL characters' },
    ]);
  });
});

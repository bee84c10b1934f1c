import { chunkLines, readChunk, readLine } from './ndjson';

describe('chunkLines', () => {
  it('splits into chunks of n lines numbered as the input numbers them; trailing blank lines dropped', () => {
    const { chunks, lines } = chunkLines('a\r\nb\n\nc\nd\n\n', 2);
    expect(lines).toBe(5);
    expect(chunks).toEqual([
      { seq: 0, first_line: 1, lines: 'a\nb' },
      { seq: 1, first_line: 3, lines: '\nc' },
      { seq: 2, first_line: 5, lines: 'd' },
    ]);
  });

  it('continues the numbering of an earlier input', () => {
    expect(chunkLines('x\ny', 5, 3, 11).chunks).toEqual([{ seq: 3, first_line: 11, lines: 'x\ny' }]);
  });

  it('an empty upload has no lines', () => {
    expect(chunkLines('\n \n', 10)).toEqual({ chunks: [], lines: 0 });
  });
});

describe('readLine', () => {
  it('a valid resource is stored about its patient', () => {
    expect(readLine('{"resourceType":"Patient","id":"p1"}', 1)).toEqual({
      resource_type: 'Patient',
      id: 'p1',
      patient_id: 'p1',
      resource: { resourceType: 'Patient', id: 'p1' },
    });
  });

  it.each([
    ['{"resourceType":', 'the line is not JSON'],
    ['[1,2]', 'the line is not a FHIR resource (no resourceType)'],
    ['{"resourceType":"Patient"}', 'the Patient has no id'],
    ['{"resourceType":"Patient","id":"a b"}', 'the id must be 1 to 255 letters, digits, "-" or "."'],
    [`{"resourceType":"Patient","id":"p","x":${'['.repeat(40)}${']'.repeat(40)}}`, 'the JSON is nested too deeply'],
  ])('%s is skipped: %s', (text, diagnostics) => {
    expect(readLine(text, 7)).toEqual({ line: 7, diagnostics });
  });

  it('a NUL inside a string (which PostgreSQL cannot store) is skipped, not a failed import', () => {
    expect(readLine('{"resourceType":"Patient","id":"p","gender":"\\u0000"}', 3)).toMatchObject({ line: 3 });
  });

  it('a resource that is not valid R4 names what is wrong', () => {
    const read = readLine('{"resourceType":"Observation","id":"o","status":"bogus","code":{"text":"x"}}', 4);
    expect(read).toMatchObject({ line: 4 });
    expect((read as { diagnostics: string }).diagnostics).toMatch(/^not valid FHIR R4: .*status/);
  });

  it('a blank line is nothing', () => {
    expect(readLine('   ', 2)).toBeNull();
  });
});

describe('readChunk', () => {
  it('the last line for one resourceType/id wins, problems keep their line numbers', () => {
    const out = readChunk({
      seq: 0,
      first_line: 10,
      lines: ['{"resourceType":"Patient","id":"p","gender":"male"}', 'oops', '{"resourceType":"Patient","id":"p","gender":"female"}'].join(
        '\n',
      ),
    });
    expect(out.lines).toBe(3);
    expect(out.problems).toEqual([{ line: 11, diagnostics: 'the line is not JSON' }]);
    expect(out.resources.map((r) => r.resource.gender)).toEqual(['female']);
  });
});

import { moduleSources } from './testing/module-sources';

/**
 * "DTOs validated by the pipe" (issue 23): a route's body is a DTO class (class-validator) or goes
 * through a pipe that checks it and hands a typed value (`@Body(SomePipe) body: Typed`). A body taken
 * as `unknown` or a loose record would be parsed by hand further in, where its refusals drift.
 */
export function uncheckedBodies(text: string): string[] {
  return [...text.matchAll(/@Body\(\)\s+(\w+)\s*:\s*(unknown|any|object|Record<string,\s*unknown>)/g)].map((m) => m[0]);
}

describe('request bodies', () => {
  it('reach every handler checked: a DTO class or a pipe, never unknown', () => {
    const found = moduleSources().flatMap(({ file, text }) => uncheckedBodies(text).map((b) => `${file}: ${b}`));
    expect(found).toEqual([]);
  });

  it('catches a hand-parsed body and lets a DTO or a piped body through', () => {
    expect(uncheckedBodies('store(@Body() body: unknown): Promise<X> {')).toEqual(['@Body() body: unknown']);
    expect(uncheckedBodies('list(@Body() raw: Record<string, unknown>) {')).toEqual(['@Body() raw: Record<string, unknown>']);
    expect(uncheckedBodies('answer(@Body() body: AnswerDto) {')).toEqual([]);
    expect(uncheckedBodies('store(@Body(BundleBodyPipe) body: BundleBody) {')).toEqual([]);
  });
});

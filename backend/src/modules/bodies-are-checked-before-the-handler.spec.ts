import { moduleSources } from './testing/module-sources';

/**
 * "DTOs validated by the pipe" (issue 23): a route's body and query string are a DTO class (class-validator)
 * or go through a pipe that checks them and hands a typed value (`@Body(SomePipe) body: Typed`,
 * `@Query(new ListQueryPipe(…)) query: ListQuery`). One taken as `unknown` or a loose record would be parsed
 * by hand further in, where its refusals drift.
 */
const UNCHECKED = /@(Body|Query)\(\)\s+(\w+)\s*:\s*(unknown|any|object|Record<string,\s*(?:unknown|any|string)>)/g;

export function uncheckedBodies(text: string): string[] {
  return [...text.matchAll(UNCHECKED)].map((m) => m[0]);
}

describe('request bodies and query strings', () => {
  it('reach every handler checked: a DTO class or a pipe, never unknown or a loose record', () => {
    const found = moduleSources().flatMap(({ file, text }) => uncheckedBodies(text).map((b) => `${file}: ${b}`));
    expect(found).toEqual([]);
  });

  it('catches a hand-parsed body or query string and lets a DTO or a piped one through', () => {
    expect(uncheckedBodies('store(@Body() body: unknown): Promise<X> {')).toEqual(['@Body() body: unknown']);
    expect(uncheckedBodies('list(@Body() raw: Record<string, unknown>) {')).toEqual(['@Body() raw: Record<string, unknown>']);
    expect(uncheckedBodies('answer(@Body() body: AnswerDto) {')).toEqual([]);
    expect(uncheckedBodies('store(@Body(BundleBodyPipe) body: BundleBody) {')).toEqual([]);
    expect(uncheckedBodies('list(@Query() query: Record<string, unknown>): Promise<Page<X>> {')).toEqual([
      '@Query() query: Record<string, unknown>',
    ]);
    expect(uncheckedBodies('panel(@Query() q: any) {')).toEqual(['@Query() q: any']);
    expect(uncheckedBodies('list(@Query(new ListQueryPipe({ sortable: [] })) query: ListQuery) {')).toEqual([]);
    expect(uncheckedBodies('get(@Param() id: string, @Query() query: AssessmentQueryDto) {')).toEqual([]);
  });
});

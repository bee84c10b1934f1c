import { DomainError } from './errors';
import { ListQueryPipe } from './list-query.pipe';

const pipe = new ListQueryPipe({
  sortable: ['created_at', 'email'],
  defaultSort: { field: 'created_at', order: 'DESC' },
  filters: ['q', 'id'],
});

function refusal(query: Record<string, unknown>): { code: string; message: string; details: unknown } {
  try {
    pipe.transform(query);
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, message: e.message, details: e.details };
    throw e;
  }
  throw new Error('the query was accepted');
}

describe('ListQueryPipe: a list route’s simple-rest query, checked before the handler', () => {
  it('hands the service a typed ListQuery from sort, range and filter', () => {
    expect(pipe.transform({ sort: '["email","asc"]', range: '[10,19]', filter: '{"q":"ada"}' })).toEqual({
      sort: { field: 'email', order: 'ASC' },
      offset: 10,
      limit: 10,
      filter: { q: 'ada' },
    });
    expect(pipe.transform({})).toEqual({ sort: { field: 'created_at', order: 'DESC' }, offset: 0, limit: 25, filter: {} });
  });

  it('refuses a filter key the route does not read, naming it and the ones it does', () => {
    expect(refusal({ filter: '{"colour":"red"}' })).toEqual({
      code: 'validation_failed',
      message: "Unknown filter 'colour'; use one of: q, id",
      details: [{ field: 'filter.colour', message: "Unknown filter 'colour'; use one of: q, id" }],
    });
  });

  it('refuses a sort field the route does not offer before looking at the filter', () => {
    expect(refusal({ sort: '["password","ASC"]', filter: '{"colour":"red"}' }).details).toEqual([
      { field: 'sort', message: "Cannot sort by 'password'" },
    ]);
  });

  it('lets any filter key through on a route that names none', () => {
    const open = new ListQueryPipe({ sortable: ['at'], defaultSort: { field: 'at', order: 'DESC' }, defaultLimit: 10 });
    expect(open.transform({ filter: '{"type":"signup"}' })).toMatchObject({ limit: 10, filter: { type: 'signup' } });
  });
});

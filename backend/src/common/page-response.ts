import type { Express, Response } from 'express';
import { Page } from './pagination';

/**
 * Lists are returned as a bare array with their total in Content-Range (simple-rest): a route returns
 * a Page, and the app's `res.json` writes it so. Done on the app's response prototype rather than as a
 * global Nest interceptor: any global interceptor puts every route through an RxJS pipeline and an async
 * resource per request, about 4.5 % of a CDS hook call's API CPU (docs/benchmarks.md).
 */
export function returnPagesAsLists(app: Express): void {
  const json = app.response.json;
  app.response.json = function (this: Response, body: unknown) {
    if (!(body instanceof Page)) return json.call(this, body);
    this.setHeader('Content-Range', body.contentRange);
    return json.call(this, body.items);
  };
}

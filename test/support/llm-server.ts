import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat-completions request as the server saw it. */
export interface LlmRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    messages?: Array<{ role: string; content: string }>;
    [key: string]: unknown;
  };
  /** The parameter the provider described in the user message, parsed back. */
  parameter: { display_name?: string; name?: string; category?: string; data_type?: string; units?: string };
}

/** What the server does with one request. */
export type LlmBehaviour =
  | { kind: 'answer'; content: string; delayMs?: number }
  | { kind: 'status'; status: number }
  | { kind: 'raw'; body: string }
  /** Holds the request open until the test releases it (or the client gives up). */
  | { kind: 'hold'; release: Promise<string> }
  /** Drops the connection without an answer. */
  | { kind: 'reset' };

/**
 * A local OpenAI-compatible chat-completions server for the polishing tests. By default it
 * answers "LLM: what is the patient's <display name>?". `when(displayName, ...)` queues
 * one-off behaviours for requests about that display name, so background jobs for other
 * parameters never consume them.
 */
export class LlmServer {
  readonly requests: LlmRequest[] = [];
  private readonly scripted = new Map<string, LlmBehaviour[]>();
  private readonly sockets = new Set<import('node:net').Socket>();
  private server?: Server;
  url = '';

  fallback: (req: LlmRequest) => LlmBehaviour = (req) => ({
    kind: 'answer',
    content: `LLM: what is the patient's ${req.parameter.display_name ?? 'value'}?`,
  });

  /** The next requests about this display name get these behaviours, in order. */
  when(displayName: string, ...behaviours: LlmBehaviour[]): void {
    this.scripted.set(displayName, [...(this.scripted.get(displayName) ?? []), ...behaviours]);
  }

  requestsFor(displayName: string): LlmRequest[] {
    return this.requests.filter((r) => r.parameter.display_name === displayName);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: LlmRequest['body'] = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      /* recorded as empty */
    }
    let parameter: LlmRequest['parameter'] = {};
    try {
      parameter = JSON.parse(body.messages?.find((m) => m.role === 'user')?.content ?? '{}');
    } catch {
      /* not JSON */
    }
    const seen: LlmRequest = { path: req.url ?? '', headers: req.headers, body, parameter };
    this.requests.push(seen);

    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const behaviour = this.scripted.get(parameter.display_name ?? '')?.shift() ?? this.fallback(seen);
    switch (behaviour.kind) {
      case 'status':
        res.writeHead(behaviour.status, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'raw':
        res.writeHead(200, { 'content-type': 'application/json' }).end(behaviour.body);
        return;
      case 'hold': {
        const content = await behaviour.release;
        if (!res.destroyed) this.answer(res, body.model, content);
        return;
      }
      case 'answer':
        if (behaviour.delayMs) await new Promise((r) => setTimeout(r, behaviour.delayMs).unref());
        if (!res.destroyed) this.answer(res, body.model, behaviour.content);
        return;
    }
  }

  private answer(res: ServerResponse, model: string | undefined, content: string) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: model ?? 'test-model',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  }
}

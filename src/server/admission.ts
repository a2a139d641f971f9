/**
 * Admission control, from the first byte of a request to the last byte of its answer. A request body is
 * received under the receive budget (bytes held by bodies still arriving, across all requests; Node's
 * header and body time-outs cut slow senders). Once whole, a request to a route marked `admit` takes a
 * slot: at most `maxInflight` hold one, running or waiting for a worker; more get 503 with Retry-After.
 * A slot is held until the answer is sent or the client has gone, and until every piece of work started
 * for the request has ended: a client that disconnects cancels its work (`RequestWork.signal`) but
 * cannot free a slot its work still occupies, so abandoned requests never pile up behind the limit.
 */
import { pipeline, Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LimitError } from '../model/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Counted against the in-flight limit. */
    admit?: boolean;
  }
  interface FastifyRequest {
    /** Set on admitted requests (see `requestWork`). */
    work?: RequestWork;
  }
}

export interface AdmissionOptions {
  readonly maxInflight: number;
  /** Bytes of request bodies that may be arriving at once, over all requests. */
  readonly receiveBudget: number;
  /** Time limit of one request from its arrival. */
  readonly requestTimeoutMs: number;
  /** Share of the time limit the work itself may use (the rest covers queueing and answering). */
  readonly workShare: number;
  /** Seconds a refused client is told to wait. */
  readonly retryAfterS?: number;
}

export interface Admission {
  /** Requests holding a slot. */
  readonly inflight: number;
  /** Bytes of bodies being received. */
  readonly receiving: number;
  /** Requests refused with 503 so far. */
  readonly refused: number;
}

/** What an admitted request's work needs: when to stop and whether the client is still there. */
export interface RequestWork {
  /** Aborted when the client goes away before its answer is sent. */
  readonly signal: AbortSignal;
  /** Hard deadline of the request (`Date.now()` ms): past it the work is stopped and 504 answered. */
  readonly deadline: number;
  /** Deadline the work itself aims at, early enough to be answered before `deadline`. */
  readonly workDeadline: number;
  /** Keeps the request's slot until `work` settles (even if the client is gone); returns `work`. */
  hold<T>(work: Promise<T>): Promise<T>;
}

/** The work handle of an admitted request. */
export function requestWork(request: FastifyRequest): RequestWork {
  if (!request.work) throw new Error('internal: requestWork on a route without admission');
  return request.work;
}

class Slot {
  private holds = 0;
  private answered = false;
  private released = false;

  constructor(private readonly release: () => void) {}

  hold<T>(work: Promise<T>): Promise<T> {
    this.holds++;
    const done = () => {
      this.holds--;
      this.maybeRelease();
    };
    work.then(done, done);
    return work;
  }

  closed(): void {
    this.answered = true;
    this.maybeRelease();
  }

  private maybeRelease(): void {
    if (this.released || !this.answered || this.holds > 0) return;
    this.released = true;
    this.release();
  }
}

function busy(reply: FastifyReply, retryAfterS: number, error: string, field: string | null): FastifyReply {
  return reply.code(503).header('retry-after', String(retryAfterS)).send({ error, field });
}

/** Counts the bytes of a body as they arrive against the shared budget; gives them back at the end. */
function metered(payload: NodeJS.ReadableStream, state: { receiving: number }, budget: number): Transform {
  let held = 0;
  const giveBack = () => {
    state.receiving -= held;
    held = 0;
  };
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (state.receiving + chunk.length > budget) {
        callback(
          new LimitError(
            'body',
            `server busy: ${state.receiving} bytes of request bodies arriving (receive budget ${budget})`,
            'busy',
          ),
        );
        return;
      }
      state.receiving += chunk.length;
      held += chunk.length;
      callback(null, chunk);
    },
  });
  meter.once('end', giveBack);
  meter.once('close', giveBack);
  // A client that stops mid-body destroys the meter too, which gives its bytes back.
  pipeline(payload, meter, () => {});
  return meter;
}

export function installAdmission(app: FastifyInstance, options: AdmissionOptions): Admission {
  const state = { inflight: 0, receiving: 0, refused: 0 };
  const retryAfterS = options.retryAfterS ?? 1;

  app.addHook('preParsing', async (request, _reply, payload) => {
    const headers = request.headers;
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) return payload;
    return metered(payload, state, options.receiveBudget);
  });

  // After the body is parsed: the request is whole, so it takes a slot or is refused.
  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config?.admit) return;
    if (state.inflight >= options.maxInflight) {
      state.refused++;
      const error = `server busy: ${state.inflight} requests in flight (limit ${options.maxInflight})`;
      return busy(reply, retryAfterS, error, null);
    }
    state.inflight++;
    const slot = new Slot(() => state.inflight--);
    const controller = new AbortController();
    const arrival = request.arrivedAt ?? Date.now();
    request.work = {
      signal: controller.signal,
      deadline: arrival + options.requestTimeoutMs,
      workDeadline: arrival + options.requestTimeoutMs * options.workShare,
      hold: (work) => slot.hold(work),
    };
    // 'close' comes for every response, sent or aborted; before 'finish' it means the client went away.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
      slot.closed();
    });
  });

  app.addHook('onRequest', async (request) => {
    request.arrivedAt = Date.now();
  });
  return state;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** When the request's headers were complete (`Date.now()` ms). */
    arrivedAt?: number;
  }
}

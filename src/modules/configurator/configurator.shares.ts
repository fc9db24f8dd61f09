// Shared configurations (issue 37, item 2): the model page keeps a configuration in its address
// (`?select=A,B&deselect=C`) while that stays short; a longer one (a complete configuration of a
// large model) is stored here under a short key and the address is `?config=<key>`, so no address
// the hub makes grows past MAX_URL_LENGTH (browsers and proxies refuse long ones, Node answers 431
// beyond 16 KiB of headers). Only the model's features may be named (a worker checks them): an
// unknown name is a bad value (extensions section 6), 400 {"message"} naming it.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { insertUnlessDuplicate } from '../../core/db/connect.ts';
import { nowIso } from '../../core/db/database.ts';
import { badRequest, HttpError, notFound, tooManyRequests } from '../../core/http/errors.ts';
import { requesterOf } from '../../core/scheduler/index.ts';
import { distinctNames } from './configurator.params.ts';
import { newShareLimiter, shareLimitMessage, shareUnits } from './configurator.share-limit.ts';

const NOT_FOUND = { message: 'File not found' };
const SHARE_NOT_FOUND = { message: 'This shared configuration does not exist.' };
const fileParams = { type: 'object', required: ['file_id'], properties: { file_id: { type: 'integer', minimum: 1 } } } as const;
/** Unknown names listed in a refusal at most; the rest are counted (a body may hold 100,000 names). */
const UNKNOWN_LISTED = 10;
const names = { type: 'array', items: { type: 'string', maxLength: 1000 }, maxItems: 100_000 } as const;

/**
 * The key: the file and the decisions (each list sorted, so the same configuration reached in
 * another order is one row) hashed, 128 bits in base64url. Derived from the content, two
 * instances storing the same configuration write one row, and a key cannot be guessed.
 */
export function shareKey(fileId: number, decisions: { selected: string[]; deselected: string[] }): string {
  const canonical = JSON.stringify([fileId, [...decisions.selected].sort(), [...decisions.deselected].sort()]);
  return createHash('sha256').update(canonical, 'utf8').digest('base64url').slice(0, 22);
}

/** The refusal of decisions naming features the model does not have (extensions section 6: an unknown name is a bad value). */
export function unknownFeaturesMessage(unknown: string[]): string {
  const listed = unknown.slice(0, UNKNOWN_LISTED).map((name) => JSON.stringify(name)).join(', ');
  const more = unknown.length > UNKNOWN_LISTED ? ` and ${unknown.length - UNKNOWN_LISTED} more` : '';
  return `The model has no feature${unknown.length === 1 ? '' : 's'} ${listed}${more}: a shared configuration names only the model's features.`;
}

export async function sharedConfigurationRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const { db } = ctx;
  // New shares' units per requester and hour, counted in this process (configurator.share-limit.ts).
  const newShares = newShareLimiter();
  const visible = async (fileId: number, request: { user?: { id: number } | null }) => {
    if (!await ctx.services.hubfile.getVisibleFile(fileId, request.user?.id ?? null)) throw notFound('File not found', NOT_FOUND);
  };

  /**
   * Refuses decisions that name no feature of the model (404 for a file the caller may not see).
   * The names are known only from the parsed model: a worker of the configurator checks them.
   */
  const checkNames = async (fileId: number, request: FastifyRequest, reply: FastifyReply, decisions: { selected: string[]; deselected: string[] }) => {
    const answer = await ctx.services.configurator.unknownNames(fileId, request.user?.id ?? null, requesterOf(request), [...decisions.selected, ...decisions.deselected]);
    if (answer.kind === 'not-found') throw notFound('File not found', NOT_FOUND);
    if (answer.kind === 'busy') {
      reply.header('retry-after', String(answer.retryAfterS));
      throw tooManyRequests(answer.message, { message: answer.message });
    }
    // A model the configurator cannot read has no configuration to share.
    if (answer.kind !== 'done') {
      const message = answer.kind === 'failed' || answer.kind === 'bad-value' ? answer.message : 'The model could not be read.';
      throw new HttpError(422, 'unprocessable', message, { message });
    }
    const { unknown } = JSON.parse(answer.json) as { unknown: string[] };
    if (unknown.length > 0) throw badRequest(unknownFeaturesMessage(unknown), { message: unknownFeaturesMessage(unknown) });
  };

  app.post('/configurator/:file_id(^\\d+$)/shares', {
    config: { json: true },
    schema: { params: fileParams, body: { type: 'object', properties: { selected: names, deselected: names } } },
  }, async (request, reply) => {
    const fileId = (request.params as { file_id: number }).file_id;
    const body = (request.body ?? {}) as { selected?: string[]; deselected?: string[] };
    const decisions = { selected: distinctNames(body.selected), deselected: distinctNames(body.deselected) };
    // Before the stored row is looked up: a configuration stored before names were checked is not handed out again.
    await checkNames(fileId, request, reply, decisions);
    const key = shareKey(fileId, decisions);
    // A configuration stored already answers its key and costs nothing.
    if (await db.selectFrom('shared_configuration').select('share_key').where('share_key', '=', key).executeTakeFirst()) return { key };
    // A new row costs the requester's hour one unit per started 16 KiB of it; given back when another
    // request stored it meanwhile.
    const json = JSON.stringify(decisions);
    const requester = requesterOf(request);
    const units = shareUnits(json);
    const taken = newShares.take(requester, units);
    if (!taken.allowed) {
      reply.header('retry-after', String(taken.retryAfterS));
      const message = shareLimitMessage(taken.retryAfterS, Boolean(request.user));
      throw tooManyRequests(message, { message });
    }
    let inserted = false;
    try {
      inserted = await insertUnlessDuplicate(db, 'shared_configuration', { share_key: key, file_id: fileId, decisions: json, created_at: nowIso() });
    } finally {
      if (!inserted) newShares.giveBack(requester, units);
    }
    return { key };
  });

  app.get('/configurator/:file_id(^\\d+$)/shares/:key', {
    config: { json: true },
    schema: { params: { type: 'object', required: ['file_id', 'key'], properties: { ...fileParams.properties, key: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' } } } },
  }, async (request, reply) => {
    const { file_id: fileId, key } = request.params as { file_id: number; key: string };
    await visible(fileId, request);
    const row = await db.selectFrom('shared_configuration').select('decisions')
      .where('share_key', '=', key).where('file_id', '=', fileId).executeTakeFirst();
    if (!row) throw notFound('Shared configuration not found', SHARE_NOT_FOUND);
    // A stored configuration never changes.
    return reply.header('cache-control', 'private, max-age=86400').type('application/json; charset=utf-8').send(row.decisions);
  });
}

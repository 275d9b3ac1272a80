import { GraphFailure, graphErrors } from './errors.js';
import { parseFields, pickFields } from './fields.js';
import { paginate } from './helpers.js';
import { graphTime, ownersOf, type GraphConversation } from './objects.js';
import type { MessagingCore } from './messaging-core.js';
import type { GraphRouter } from './router.js';

/** Reading the inbox: a Page's (or Instagram account's) conversations and their messages. */
export function addMessagingReads(router: GraphRouter, core: MessagingCore) {
  const { ctx, state, objects, views, store, accountOf, requireMessaging, messageIdsOf } = core;

  /** `GET /{page}/conversations?platform=…`: newest first. */
  router.add('GET', ':id/conversations', async (req, path) => {
    const auth = await state.authenticate(req.token, [path.id]);
    const { page, accountId } = accountOf(auth, path.id!, 'get');
    const wanted = req.params.platform ?? 'messenger';
    if (wanted !== 'messenger' && wanted !== 'instagram') {
      throw graphErrors.invalidParam('(#100) platform must be one of {messenger, instagram}');
    }
    requireMessaging(auth);
    const all = (await store.list<{ updatedAt: number }>(`conversations:${page.id}`)).map(
      (e) => e.id,
    );
    const conversations: GraphConversation[] = [];
    for (const id of all) {
      const c = await objects.get(id);
      if (c?.type !== 'conversation' || c.platform !== wanted || c.owner !== accountId) continue;
      if (req.params.user_id && c.customerId !== req.params.user_id) continue;
      conversations.push(c);
    }
    conversations.sort((a, b) => b.updatedAt - a.updatedAt || b.id.localeCompare(a.id));
    const { slice, paging } = paginate(ctx, req, `${path.id}/conversations`, conversations);
    const specs = parseFields(req.params.fields, 'id,updated_time');
    const view = views.get('conversation')!;
    const data = [];
    for (const c of slice) data.push(pickFields(await view.view(c, specs), specs, 'Conversation'));
    return { json: { data, paging } };
  });

  /** `GET /{conversation}/messages`: the conversation's messages, newest first. */
  router.add('GET', ':id/messages', async (req, path) => {
    const auth = await state.authenticate(req.token);
    const c = await objects.get(path.id!);
    if (c?.type !== 'conversation' || !ownersOf(auth).has(c.owner)) {
      throw graphErrors.notFound(path.id!);
    }
    requireMessaging(auth);
    const ids = await messageIdsOf(c.id);
    const { slice, paging } = paginate(ctx, req, `${c.id}/messages`, ids);
    const specs = parseFields(req.params.fields, 'id,created_time');
    const view = views.get('message')!;
    const data = [];
    for (const id of slice) {
      const m = await objects.get(id);
      if (!m) continue;
      try {
        data.push(pickFields(await view.view(m, specs), specs, 'Message'));
      } catch (err) {
        // Instagram: only the id of a message beyond the 20 newest (or unsent).
        if (!(err instanceof GraphFailure)) throw err;
        data.push({ id, created_time: graphTime(m.createdAt) });
      }
    }
    return { json: { data, paging } };
  });
}

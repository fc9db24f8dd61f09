// A stored model for the model page's tests (test/support's storeModelFile) with a planted dead feature.
import type { TestServer } from '../../../test/support/server.ts';
import type { TestClient } from '../../../test/support/client.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';

/** Turbo is dead (line 10 with line 11), Engine is core; the name with markup must come out escaped. */
export const DEAD_MODEL = `namespace Cars

features
    Car {abstract}
        mandatory
            Engine
        optional
            Turbo
            "Diesel <V6>"

constraints
    "Diesel <V6>" => !Turbo
    "Diesel <V6>"
`;

/** A dataset (synchronized unless doi is null) with one feature model and its file in the store. */
export function storeModel(server: TestServer, options: { owner?: string; doi?: string | null; content?: string; name?: string } = {}) {
  return storeModelFile(server, { ...options, label: 'Model', content: options.content ?? DEAD_MODEL, name: options.name ?? 'cars.uvl', modelTitle: 'Cars with a dead turbo' });
}

/**
 * A model page as a visitor's browser ends up showing it: a large model's page first says it is
 * being prepared (model-page.jobs.ts), and its script polls prepared.json until the data is ready,
 * waiting as Retry-After says (no fixed sleep), then loads the page again.
 */
export async function preparedPage(client: TestClient, path: string): Promise<Awaited<ReturnType<TestClient['get']>>> {
  for (;;) {
    const page = await client.get(path);
    const preparing = /id="model-preparing" data-prepared-url="([^"]+)"/.exec(page.text);
    if (page.status !== 200 || !preparing) return page;
    const url = preparing[1]!.replaceAll('&amp;', '&');
    for (;;) {
      const poll = await client.get(url);
      if (poll.status === 200 && poll.json.ready) break;
      if (poll.status !== 202 && poll.status !== 429) throw new Error(`prepared.json answered ${poll.status}: ${poll.text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

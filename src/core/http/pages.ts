// Rendering: the template engine and the reply's page helpers, which give every page the layout's data.
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyView from '@fastify/view';
import nunjucks from 'nunjucks';
import { projectPath, type Config } from '../config.ts';
import type { NavEntry } from '../modules.ts';
import { registerTemplateFilters } from './filters.ts';
import type { Sessions } from './sessions.ts';
import { cutAtMarkers, slotMarker, type ReusablePage } from './reusable-page.ts';
import { shownCsrfToken } from './csrf-tokens.ts';

/** Templates are found under core's views and under src/modules (`<module>/views/...`). */
export async function registerViews(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifyView, {
    engine: { nunjucks },
    templates: [projectPath('src/core/http/views'), projectPath('src/modules')],
    production: config.env === 'production',
    options: { onConfigure: (env: nunjucks.Environment) => registerTemplateFilters(env) },
  });
}

export interface Layout {
  /** The menu, in its order. */
  nav: NavEntry[];
  /** The signed-in user's menu entries of the modules, in their order. */
  userMenu: NavEntry[];
  /** Script addresses included on every page. */
  scripts: string[];
}

/** `reply.page`, `reply.pageIsReusable`, `reply.renderReusablePage` and `reply.sendReusablePage`. */
export function decoratePages(app: FastifyInstance, layout: Layout, sessions: Pick<Sessions, 'csrfTokens' | 'csrfSecretOf'>): void {
  const { nav, userMenu, scripts } = layout;
  const csrfTokenOf = (reply: FastifyReply): string => {
    // A session gets its secret when it is loaded or, new, when its first page asks here (sessions.ts).
    const secret = sessions.csrfSecretOf(reply.request);
    const token = secret !== undefined ? sessions.csrfTokens.tokenFor(secret) : reply.generateCsrf();
    // A page that may go out compressed shows the token masked afresh (BREACH, csrf-tokens.ts).
    return shownCsrfToken(reply.request.headers['accept-encoding'], token);
  };

  app.decorateRequest('user', null);
  app.decorateReply('page', async function page(this: FastifyReply, template: string, data: Record<string, unknown> = {}) {
    const request = this.request;
    const flashes = request.session.flash ?? [];
    if (flashes.length > 0) request.session.flash = [];
    this.type('text/html; charset=utf-8');
    return this.view(template, {
      ...data,
      currentUser: request.user,
      csrfToken: csrfTokenOf(this),
      nav,
      userMenu,
      scripts,
      flashes,
      currentPath: request.url.split('?')[0],
    });
  });

  // Reusable pages (reusable-page.ts): only for a visitor who is not logged in and has no
  // flash message waiting, since the layout shows both.
  app.decorateReply('pageIsReusable', function pageIsReusable(this: FastifyReply) {
    return !this.request.user && !(this.request.session?.flash?.length);
  });
  app.decorateReply('renderReusablePage', async function renderReusablePage(this: FastifyReply, template: string, data: Record<string, unknown> = {}) {
    const html: string = await app.view(template, {
      ...data,
      currentUser: null,
      csrfToken: slotMarker('csrf_token'),
      nav,
      userMenu,
      scripts,
      flashes: [],
      currentPath: this.request.url.split('?')[0],
    });
    return cutAtMarkers(html);
  });
  app.decorateReply('sendReusablePage', function sendReusablePage(this: FastifyReply, page: ReusablePage, values: Record<string, string | number> = {}) {
    this.type('text/html; charset=utf-8');
    return page.fill({ ...values, csrf_token: csrfTokenOf(this) });
  });
}

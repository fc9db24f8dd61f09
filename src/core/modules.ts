// The module system (decisions section 2): modules.json picks the modules of the
// active environment, every `requires` is checked before anything registers, and
// services are built in order and reached through one registry. The mechanism only:
// which modules exist is the application's business (src/app/modules.ts).
import { readFileSync } from 'node:fs';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ConfigError, type Config } from './config.ts';
import type { Db } from './db/connect.ts';
import { createFileStore, type FileStore } from './storage/index.ts';
import { Scheduler } from './scheduler/index.ts';

export interface NavEntry {
  label: string;
  path: string;
  order: number;
  /** A Bootstrap Icons name. */
  icon: string;
}

export interface Seeder {
  name: string;
  /** Lower runs first; auth's users come at priority 1 (spec, Authentication rule 7). */
  priority: number;
  run(ctx: ModuleContext): Promise<void>;
}

/**
 * Filled by each module's index.ts through declaration merging:
 * `declare module '../../core/modules.ts' { interface ServiceRegistry { auth: AuthService } }`.
 */
export interface ServiceRegistry {}

/**
 * Payload types of events by name, filled by the emitting module's index.ts through declaration
 * merging, as ServiceRegistry is: a listener that does not require the emitter (the cart and
 * `auth.signedIn`) names the payload as `HubEventPayloads['auth.signedIn']` without importing it.
 */
export interface HubEventPayloads {}

/** In-process notifications between modules, e.g. `dataset.saved` for the search index. */
export interface HubEvents {
  on(event: string, listener: (payload: any) => Promise<void> | void): void;
  /** Runs every listener in turn and waits for them; a failing listener is logged, never fatal to the emitter. */
  emit(event: string, payload: unknown): Promise<void>;
}

export interface ModuleContext {
  config: Config;
  events: HubEvents;
  db: Db;
  /** Where uploaded files live (the uploads folder or an S3-compatible store); every file access goes through it. */
  store: FileStore;
  log: FastifyBaseLogger;
  /** The one scheduler of heavy work (worker threads, fair queues per requester): modules submit their jobs to it. */
  scheduler: Scheduler;
  /** Services of the enabled modules. Reading one that is not enabled throws ModuleNotEnabledError. */
  services: ServiceRegistry;
  /** Whether a module is in the active selection. */
  isEnabled(name: string): boolean;
}

export interface HubModule {
  name: string;
  /** Modules that must be enabled too (coupling rules of the specification). */
  requires: string[];
  createService?: (ctx: ModuleContext) => unknown;
  /** Hooks that must apply to every route (only auth: it resolves the session login). */
  setup?: (app: FastifyInstance, ctx: ModuleContext) => Promise<void> | void;
  /** Routes, registered in an encapsulated plugin. */
  routes?: (app: FastifyInstance, ctx: ModuleContext) => Promise<void> | void;
  /** Absolute path of the folder served at /<name>/<subfolder>/<file>. */
  assets?: string;
  /** Scripts inside the assets folder included on every page, e.g. `js/scripts.js`. */
  scripts?: string[];
  nav?: NavEntry;
  /** Entries of the signed-in user's menu (above My profile), e.g. the dataset module's My datasets. */
  userMenu?: NavEntry[];
  seeders?: Seeder[];
  /** Whether the module's tables hold rows; seeding refuses a database where any module says yes. */
  hasData?: (ctx: ModuleContext) => Promise<boolean>;
}

export function defineModule(module: HubModule): HubModule {
  return module;
}

export class ModuleSelectionError extends Error {}
export class ModuleNotEnabledError extends Error {}

/** How the application finds a module by name, loading it only when selected (src/app/modules.ts holds the list). */
export type ModuleCatalogue = Record<string, () => Promise<HubModule>>;

interface ModulesFile {
  base: string[];
  development: string[];
  production: string[];
}

const MODULE_LISTS = ['base', 'development', 'production'] as const;

export function readModuleSelection(config: Config): string[] {
  const file = config.modulesFile;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : (error as Error).message;
    throw new ModuleSelectionError(`Cannot read the module lists from ${file}: ${reason}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ModuleSelectionError(`${file} is not valid JSON (${(error as Error).message}). Expected {"base": [...], "development": [...], "production": [...]}.`);
  }
  // Decisions section 2: {"base": [...], "development": [...], "production": [...]}. A misspelt
  // key would silently drop modules (webhook lives in "production"), so unknown keys are refused.
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ModuleSelectionError(`${file} must hold an object {"base": [...], "development": [...], "production": [...]}.`);
  }
  const unknown = Object.keys(parsed).filter((key) => !(MODULE_LISTS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw new ModuleSelectionError(`${file}: unknown key ${unknown.map((k) => `"${k}"`).join(', ')}; the lists are "base", "development" and "production".`);
  }
  if (!('base' in parsed)) throw new ModuleSelectionError(`${file}: the "base" list is missing.`);
  const lists = parsed as Partial<ModulesFile>;
  const list = (key: keyof ModulesFile): string[] => {
    const value = lists[key] ?? [];
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      throw new ModuleSelectionError(`${file}: "${key}" must be a list of module names`);
    }
    return value;
  };
  return [...new Set([...list('base'), ...list(config.env)])];
}

/** Loads the selected modules from a catalogue and checks every coupling rule before any of them registers. */
export async function loadModulesFrom(moduleCatalogue: ModuleCatalogue, names: string[]): Promise<HubModule[]> {
  for (const name of names) {
    if (!moduleCatalogue[name]) {
      throw new ModuleSelectionError(`Unknown module "${name}". Known modules: ${Object.keys(moduleCatalogue).join(', ')}.`);
    }
  }
  const modules = await Promise.all(names.map((name) => moduleCatalogue[name]!()));
  const enabled = new Set(names);
  for (const module of modules) {
    const missing = module.requires.filter((r) => !enabled.has(r));
    if (missing.length > 0) {
      throw new ModuleSelectionError(
        `Module "${module.name}" requires ${missing.map((m) => `"${m}"`).join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not enabled. Add ${missing.length > 1 ? 'them' : 'it'} to modules.json or remove "${module.name}".`,
      );
    }
  }
  return modules;
}

export function createModuleContext(
  config: Config,
  db: Db,
  log: FastifyBaseLogger,
  modules: HubModule[],
  store: FileStore = createFileStore(config),
): ModuleContext {
  const built = new Map<string, unknown>();
  const enabled = new Set(modules.map((m) => m.name));
  const services = new Proxy({} as ServiceRegistry, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      if (!built.has(name)) {
        throw new ModuleNotEnabledError(`The "${name}" module is not enabled.`);
      }
      return built.get(name);
    },
    has(_target, name) {
      return typeof name === 'string' && built.has(name);
    },
  });
  const listeners = new Map<string, ((payload: any) => Promise<void> | void)[]>();
  const events: HubEvents = {
    on(event, listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
    async emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) {
        try {
          await listener(payload);
        } catch (error) {
          log.error({ err: error, event }, 'event listener failed');
        }
      }
    },
  };
  const scheduler = new Scheduler({
    perRequester: config.heavyJobsPerRequester,
    seats: { large: config.heavyWorkers, small: config.smallModelWorkers },
    memoryMb: config.heavyMemoryMb,
  });
  const ctx: ModuleContext = { config, db, store, log, events, scheduler, services, isEnabled: (name) => enabled.has(name) };
  // Services reach each other through the registry at call time, so mutual
  // requirements (auth and profile; dataset, featuremodel and hubfile) need no build order.
  for (const module of modules) {
    if (module.createService) built.set(module.name, module.createService(ctx));
  }
  return ctx;
}

export async function databaseIsEmpty(ctx: ModuleContext, modules: HubModule[]): Promise<boolean> {
  for (const module of modules) if (await module.hasData?.(ctx)) return false;
  return true;
}

export async function runSeeders(ctx: ModuleContext, modules: HubModule[]): Promise<string[]> {
  const seeders = modules.flatMap((m) => m.seeders ?? []).sort((a, b) => a.priority - b.priority);
  for (const seeder of seeders) await seeder.run(ctx);
  return seeders.map((s) => s.name);
}

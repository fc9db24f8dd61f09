// An HTTP client that behaves like a browser for tests: a cookie jar, no automatic
// redirects (tests assert them), and the CSRF token read from the last page.
export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, when the body is JSON. */
  json: any;
  location: string | null;
  /** Set-Cookie values by cookie name, as sent by this response. */
  setCookies: Map<string, string>;
}

export interface RequestOptions {
  form?: Record<string, string>;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Add the CSRF token from the last page (field csrf_token for forms, header X-CSRFToken otherwise). Default true. */
  csrf?: boolean;
}

export class TestClient {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;

  constructor(readonly baseUrl: string) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<TestResponse> {
    return this.request('GET', path, { headers, csrf: false });
  }

  async post(path: string, options: RequestOptions = {}): Promise<TestResponse> {
    return this.request('POST', path, options);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: BodyInit | undefined = options.body;
    const useCsrf = options.csrf !== false && method !== 'GET';
    if (options.form) {
      const form = new URLSearchParams(options.form);
      if (useCsrf && this.csrfToken && !form.has('csrf_token')) form.set('csrf_token', this.csrfToken);
      body = form.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else {
      if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        headers['content-type'] = 'application/json';
      }
      if (useCsrf && this.csrfToken) headers['x-csrftoken'] = this.csrfToken;
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    const setCookies = new Map<string, string>();
    for (const raw of res.headers.getSetCookie()) {
      const [pair] = raw.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      setCookies.set(name, raw);
      if (/expires=Thu, 01 Jan 1970/i.test(raw) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    const token = /<meta name="csrf-token" content="([^"]+)"/.exec(text);
    if (token) this.csrfToken = token[1]!;
    let json: any;
    if ((res.headers.get('content-type') ?? '').includes('application/json')) {
      try { json = JSON.parse(text); } catch { json = undefined; }
    }
    return { status: res.status, headers: res.headers, text, json, location: res.headers.get('location'), setCookies };
  }

  /** Logs in through the form, as a person would. */
  async login(email: string, password: string): Promise<TestResponse> {
    await this.get('/login');
    return this.post('/login', { form: { email, password } });
  }
}

/** The same browser (one cookie jar) talking to another instance, as behind a load balancer. */
export function browserOn(server: { baseUrl: string }, jar: TestClient): TestClient {
  const client = new TestClient(server.baseUrl);
  for (const [name, value] of jar.cookies) client.cookies.set(name, value);
  client.csrfToken = jar.csrfToken;
  return client;
}

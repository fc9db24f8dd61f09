// A sample as CSV (extensions section 6, "Command line"), shared by the command line and the hub.

/** Header: the features sorted by name; one row of 0/1 per configuration. */
export function sampleCsv(result: { features: string[]; configurations: string[][] }): string {
  const quote = (name: string) => (/[",\n\r]/.test(name) ? `"${name.replace(/"/g, '""')}"` : name);
  const rows = [result.features.map(quote).join(',')];
  for (const config of result.configurations) {
    const on = new Set(config);
    rows.push(result.features.map((f) => (on.has(f) ? '1' : '0')).join(','));
  }
  return `${rows.join('\n')}\n`;
}

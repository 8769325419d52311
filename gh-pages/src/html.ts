/**
 * The one way the site turns data into HTML: a tagged template whose every
 * interpolation is escaped unless it is already `Html` built the same way. Store data (units,
 * names, parameters, commit subjects, machine names, reasons) is never concatenated into markup
 * by hand, so forgetting to escape is not possible at a sink that uses `html`.
 */

/** Markup built by `html` (or a constant): the only thing `setHtml` accepts. */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** Escapes text for an element body or a quoted attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(v: Part): string {
  if (v instanceof Html) return v.markup;
  if (Array.isArray(v)) return (v as readonly Part[]).map(render).join('');
  if (v === null || v === undefined || v === false) return '';
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Html(out);
}

/** A list of parts joined with a separator (escaped like any interpolation). */
export function join(parts: readonly Part[], separator: Part = ''): Html {
  return new Html(parts.map(render).join(render(separator)));
}

/** The sink: the only place the site assigns innerHTML. */
export function setHtml(el: Element, h: Html): void {
  el.innerHTML = h.markup;
}

export function appendHtml(el: Element, h: Html): void {
  el.insertAdjacentHTML('beforeend', h.markup);
}

/**
 * Links the site writes: its own hash routes, relative store paths, and http(s) links to the
 * repository (config.json). Anything else (a `javascript:` URL) becomes an inert '#'.
 */
export function safeUrl(url: string): string {
  return /^(https?:\/\/|#|data\/|\.\/)/i.test(url) || /^[\w-][\w./-]*$/.test(url) ? url : '#';
}

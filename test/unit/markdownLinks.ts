// The links of a Markdown file as a reader follows them: its relative links and pictures, and the
// anchors its headings make (GitHub's way: lower case, punctuation dropped, spaces to hyphens, a
// repeated heading numbered). Code is not prose: fenced blocks and inline code are skipped, so a `#`
// comment in a shell block is no heading and a `[x](y)` in a code sample is no link.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface MarkdownLink {
  /** the link as written */
  href: string;
  /** the file it leads to, relative to the repository (the linking file itself for `#anchor`) */
  file: string;
  /** the heading anchor after `#`, if any */
  anchor?: string;
  /** a picture (`![alt](…)`) rather than a link */
  picture: boolean;
  /** its line in the linking file */
  line: number;
}

/** The text with fenced code blocks blanked (line numbers kept) and inline code spans removed. */
function prose(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return '';
      }
      if (marker) {
        fence = marker;
        return '';
      }
      return line.replace(/(`+)[^`]*?\1/g, '');
    })
    .join('\n');
}

/** GitHub's anchor of a heading's text. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings, in order, with GitHub's `-1`, `-2` for repeats. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  // code spans stay in a heading's text (their content counts); only fenced blocks are skipped
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The relative links and pictures of a Markdown file of the repository (`file`, relative to `root`). */
export function relativeLinks(root: string, file: string): MarkdownLink[] {
  return linksIn(fs.readFileSync(path.join(root, file), 'utf8'), file);
}

/** The relative links and pictures of `markdown`, the text of `file` (relative to the repository). */
export function linksIn(markdown: string, file: string): MarkdownLink[] {
  const text = prose(markdown);
  const links: MarkdownLink[] = [];
  // [text](href) or ![alt](href), the text possibly over several lines; an optional "title" after the href
  for (const m of text.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const href = m[2];
    if (/^[a-z][\w+.-]*:/i.test(href)) continue; // https:, mailto:, …
    const [target, anchor] = href.split('#', 2);
    const resolved = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(target)));
    links.push({
      href,
      file: resolved,
      anchor: anchor || undefined,
      picture: m[1] === '!',
      line: text.slice(0, m.index).split('\n').length,
    });
  }
  return links;
}

/** Where a link does not lead: its file is missing, outside the repository, or has no heading of its anchor. */
export function brokenLinks(root: string, file: string): string[] {
  const broken: string[] = [];
  for (const link of relativeLinks(root, file)) {
    const where = `${file}:${link.line} ${link.href}`;
    if (link.file.startsWith('..') || path.posix.isAbsolute(link.file)) broken.push(`${where}: outside the repository`);
    else if (!fs.existsSync(path.join(root, link.file))) broken.push(`${where}: no such file`);
    else if (link.anchor !== undefined) {
      if (!link.file.endsWith('.md')) broken.push(`${where}: an anchor into a file that is not Markdown`);
      else if (!anchorsOf(fs.readFileSync(path.join(root, link.file), 'utf8')).has(link.anchor))
        broken.push(`${where}: no heading ${link.file}#${link.anchor}`);
    }
  }
  return broken;
}

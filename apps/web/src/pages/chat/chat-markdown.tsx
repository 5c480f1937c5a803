import type { ChatSource, ChatSuggestion } from '@fieldassist/client';
import { suggestionLabel } from '@fieldassist/client/chat-sources';
import { FileText } from 'lucide-react';
import { createContext, memo, useContext, useMemo, useState, type ComponentProps, type ReactNode } from 'react';
import Markdown, { type Components, type ExtraProps } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

import { sourceLabel } from './open-source';
import { PageThumbnail } from './page-thumbnail';
import {
  citationNumber,
  pageImageNumber,
  remarkCitations,
  remarkPageImages,
  remarkSuggestions,
  suggestionNumber,
} from './remark-citations';
import { SourceLink } from './source-link';

/**
 * Answers may quote manuals, and a manual can carry text written to steer the model. An image
 * is fetched the moment it renders, so one pointing elsewhere could carry the conversation out
 * in its URL: only images served by this server are shown.
 */
function isOwnOrigin(src: unknown): src is string {
  if (typeof src !== 'string' || !src) return false;
  try {
    const url = new URL(src, window.location.href);
    return url.origin === window.location.origin && (url.protocol === 'http:' || url.protocol === 'https:');
  } catch {
    return false;
  }
}

const Sources = createContext<ChatSource[]>([]);
const Suggestions = createContext<ChatSuggestion[]>([]);

function OwnOriginImage({ src, alt }: ComponentProps<'img'>) {
  const [failed, setFailed] = useState(false);
  const sources = useContext(Sources);
  const figure = sources[pageImageNumber(src) - 1];
  if (figure) return figure.hasFigure ? <PageThumbnail source={figure} /> : null;
  if (!isOwnOrigin(src) || failed) return alt ? <span className="text-muted-foreground italic">[{alt}]</span> : null;
  return (
    <img
      src={src}
      alt={alt ?? ''}
      loading="lazy"
      onError={() => setFailed(true)}
      className="my-2 max-h-80 max-w-full rounded-md border"
    />
  );
}

/**
 * An inline citation [n]: opens source n as the sources list does. The link itself is 44 px for
 * gloved fingers; negative margins keep the line as tall as the 24 px pill drawn inside it. A word
 * joiner and nowrap keep it on the line of the word before it (remarkCitations makes the space
 * before it a no-break one): a browser may break before a box like the link even after a no-break space.
 */
function Citation({ n }: { n: number }) {
  const source = useContext(Sources)[n - 1];
  if (!source) return <span>[{n}]</span>;
  return (
    <span className="whitespace-nowrap">
      {'\u2060'}
      <SourceLink
        source={source}
        aria-label={`Source ${n}: ${sourceLabel(source)}`}
        className="group -mx-2 -my-2.5 inline-flex min-h-11 min-w-11 items-center justify-center rounded-md align-middle no-underline"
      >
        <span className="inline-flex h-6 min-w-6 items-center justify-center rounded-md bg-primary px-1.5 text-sm leading-none font-semibold text-primary-foreground group-hover:bg-primary/85">
          {n}
        </span>
      </SourceLink>
    </span>
  );
}

/**
 * A line under "Suggestions only" naming a suggested page: opens it as a source opens, the whole
 * line (at least 44 px high) to tap, its page icon for a bullet; the words above it say it may not answer.
 */
function Suggestion({ n, children }: { n: number; children: ReactNode }) {
  const suggestion = useContext(Suggestions)[n - 1];
  if (!suggestion) return <span>{children}</span>;
  return (
    <SourceLink
      source={suggestion}
      aria-label={`Suggested page: ${suggestionLabel(suggestion)}`}
      className="flex min-h-11 w-full items-center gap-2 rounded-sm font-medium text-primary underline underline-offset-2 hover:text-primary/80"
    >
      <FileText aria-hidden="true" className="size-5 shrink-0" />
      <span>{children}</span>
    </SourceLink>
  );
}

/** A list line; one that is a suggested page has no bullet (its link draws a page icon instead). */
function ListItem({ node, className, ...props }: ComponentProps<'li'> & ExtraProps) {
  const [only, ...more] = node?.children.filter((child) => child.type !== 'text' || child.value.trim()) ?? [];
  const suggested =
    more.length === 0 &&
    only?.type === 'element' &&
    only.tagName === 'a' &&
    suggestionNumber(String(only.properties.href));
  return <li {...props} className={suggested ? '-ml-5 list-none' : className} />;
}

function AnswerLink({ href, children }: ComponentProps<'a'>) {
  const cited = citationNumber(href);
  if (cited) return <Citation n={cited} />;
  const suggested = suggestionNumber(href);
  if (suggested) return <Suggestion n={suggested}>{children}</Suggestion>;
  // The sanitiser removed any href it did not trust (javascript:, data:, ...): keep the words only.
  if (!href) return <span>{children}</span>;
  const inPage = href.startsWith('#');
  return (
    <a
      href={href}
      className="font-medium text-primary underline underline-offset-2 hover:text-primary/80"
      {...(inPage ? {} : { target: '_blank', rel: 'noopener noreferrer' })}
    >
      {children}
    </a>
  );
}

const components: Components = {
  a: AnswerLink,
  li: ListItem,
  img: OwnOriginImage,
  table: ({ children }) => (
    <div className="my-2 overflow-x-auto">
      <table className="w-full border-collapse text-sm">{children}</table>
    </div>
  ),
};

// Tailwind has no typography plugin here: the answer's elements are styled from the container.
// Read in sunlight: 16 px, full-contrast text; code keeps its lines and scrolls sideways.
const prose = [
  'min-w-0 text-base leading-relaxed text-foreground wrap-anywhere',
  '[&_p]:my-2 [&>*:first-child]:mt-0 [&>*:last-child]:mb-0',
  '[&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-1 [&_li]:pl-0.5 [&_li::marker]:font-semibold',
  '[&_h1]:mt-3 [&_h1]:mb-2 [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:mt-3 [&_h2]:mb-2 [&_h2]:font-semibold [&_h3]:mt-3 [&_h3]:mb-1 [&_h3]:font-semibold',
  '[&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.9375rem]',
  '[&_pre]:my-3 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:border [&_pre]:bg-muted [&_pre]:p-3 [&_pre]:leading-snug [&_pre]:whitespace-pre [&_pre]:wrap-normal',
  '[&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_pre_code]:whitespace-pre',
  '[&_blockquote]:my-2 [&_blockquote]:border-l-4 [&_blockquote]:pl-3',
  '[&_em]:text-foreground [&_th]:border [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_td]:border [&_td]:px-2 [&_td]:py-1 [&_hr]:my-3',
].join(' ');

/**
 * An answer's markdown (GitHub flavour), its citations [n] linked to `sources` and its lines
 * naming `suggestions` linked to those pages. Raw HTML is dropped and the rest passes
 * rehype-sanitize's GitHub schema, so no script, event handler or javascript: link survives.
 */
export const ChatMarkdown = memo(function ChatMarkdown({
  content,
  sources = [],
  suggestions = [],
}: {
  content: string;
  sources?: ChatSource[];
  suggestions?: ChatSuggestion[];
}) {
  const figures = sources.flatMap((s, i) => (s.hasFigure ? [i + 1] : [])).join(',');
  // One string, so a new array of the same suggestions (each streamed chunk) keeps the plugins.
  const labels = JSON.stringify(suggestions.map(suggestionLabel));
  const remarkPlugins = useMemo(
    () => [
      remarkGfm,
      remarkSuggestions(JSON.parse(labels) as string[]),
      remarkCitations(sources.length),
      remarkPageImages(figures ? figures.split(',').map(Number) : []),
    ],
    [labels, sources.length, figures],
  );
  return (
    <Sources.Provider value={sources}>
      <Suggestions.Provider value={suggestions}>
        <div className={prose}>
          <Markdown remarkPlugins={remarkPlugins} rehypePlugins={[rehypeSanitize]} components={components} skipHtml>
            {content}
          </Markdown>
        </div>
      </Suggestions.Provider>
    </Sources.Provider>
  );
});

// The hosted mobile page a `vcard` or `page` code's /q answers (docs/TYPES.md): plain HTML with
// one inline style sheet and no script (the edge's policy allows none), every user text escaped,
// a few kilobytes at most. A contact card offers **Save contact**, its vCard 3.0 download
// (`?format=vcf`); a page lists its links. Pure: made from the resolution, so the live copy
// answers it through a database outage as it answers redirects.
import type { Content } from "../codeTypes/content";
import { dialable, mailto } from "../codeTypes/payload";
import { escapeHtml } from "../scan/page";
import type { Hosted, PageContent } from "./content";

const STYLE = `body{margin:0;font:1.0625rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;background:#f6f7f9;color:#1b1f24}
main{background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:1.5rem;max-width:30rem;margin:1rem auto;box-sizing:border-box;width:calc(100% - 2rem)}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .25rem;overflow-wrap:anywhere}p{margin:.25rem 0;overflow-wrap:anywhere}
.sub{color:#57606a}.pre{white-space:pre-line}ul{list-style:none;padding:0;margin:1rem 0}li{margin:.5rem 0}
a{color:#0b57d0;overflow-wrap:anywhere}ul a,.button{display:block;padding:.75rem 1rem;border:1px solid #8c959f;border-radius:8px;text-decoration:none;font-weight:600;min-height:1.5rem}
.button{background:#0b57d0;border-color:#0b57d0;color:#fff;text-align:center;width:100%;font:inherit;font-weight:600;cursor:pointer;box-sizing:border-box}
h2{font-size:.875rem;color:#57606a;margin:1rem 0 0;font-weight:600}footer{color:#57606a;font-size:.875rem;text-align:center;margin:1rem}`;

const htmlDocument = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><meta name="robots" content="noindex"><style>${STYLE}</style>
</head><body><main>${body}</main><footer>▦ QR Records</footer></body></html>`;

const item = (href: string, text: string) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`;

/** The contact's full name, as its vCard's FN. */
const fullName = (card: Content["vcard"]) => [card.first_name.trim(), card.last_name?.trim()].filter(Boolean).join(" ");

/**
 * **Save contact**: a link to the download; on a password-protected code a form that posts the
 * password just accepted again (the download is behind the same password as the page).
 */
function saveContact(path: string, password: string | undefined): string {
  const action = escapeHtml(`${path}?format=vcf`);
  if (password === undefined) return `<p><a class="button" href="${action}" download>Save contact</a></p>`;
  return `<form method="post" action="${action}"><input type="hidden" name="password" value="${escapeHtml(password)}"><button class="button" type="submit">Save contact</button></form>`;
}

function contactCard(card: Content["vcard"], path: string, password: string | undefined): string {
  const name = fullName(card);
  const role = [card.title, card.organization].filter(Boolean).join(" · ");
  const reach = [
    ...(card.phones ?? []).map((number) => item(`tel:${dialable(number)}`, number)),
    ...(card.emails ?? []).map((to) => item(mailto({ to }), to)),
    ...(card.url ? [item(card.url, card.url)] : []),
  ];
  return htmlDocument(
    name,
    [
      `<h1>${escapeHtml(name)}</h1>`,
      role ? `<p class="sub">${escapeHtml(role)}</p>` : "",
      reach.length > 0 ? `<ul aria-label="Contact">${reach.join("")}</ul>` : "",
      card.address ? `<h2>Address</h2><p class="pre">${escapeHtml(card.address)}</p>` : "",
      card.note ? `<h2>Note</h2><p class="pre">${escapeHtml(card.note)}</p>` : "",
      saveContact(path, password),
    ].join(""),
  );
}

const linkPage = (page: PageContent) =>
  htmlDocument(
    page.title,
    `<h1>${escapeHtml(page.title)}</h1><ul aria-label="Links">${page.links.map((link) => item(link.url, link.label)).join("")}</ul>`,
  );

/**
 * The page of a hosted code. `path`: where the short link was asked (`/q/<code>`, or `/<code>` on
 * a custom domain); `password`: the one a protected code's form just sent.
 */
export const hostedPage = (hosted: Hosted, path: string, password?: string): string =>
  hosted.type === "vcard" ? contactCard(hosted.content, path, password) : linkPage(hosted.content);

// The pager under a paged list (the library, the review queue): Previous and Next only while
// there is another page to go to (one page needs none), and where the list stands.
type Props = {
  label: string;
  testId: string;
  page: number;
  pages: number;
  /** What the list holds ("2 codes"). */
  count: string;
  busy: boolean;
  onPage: (page: number) => void;
};

export function Pager({ label, testId, page, pages, count, busy, onPage }: Props) {
  // A page past the last (the list shrank meanwhile) keeps Previous.
  const paged = pages > 1 || page > 1;
  return (
    <nav className="pager" aria-label={label}>
      {paged && (
        <button
          type="button"
          className="secondary"
          disabled={busy || page <= 1}
          onClick={() => onPage(Math.min(page - 1, pages))}
        >
          Previous
        </button>
      )}
      <span data-testid={testId}>
        {paged && `Page ${page} of ${pages} · `}
        {count}
      </span>
      {paged && (
        <button type="button" className="secondary" disabled={busy || page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </button>
      )}
    </nav>
  );
}

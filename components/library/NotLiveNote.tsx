// Beside a dynamic code's downloads when its short link answers 404 (contract: draft and paused
// codes do not resolve): printing it now would make a code that goes nowhere. The downloaded
// files say it too (`qr-<code>-draft-not-live.png`, server/images/images.ts).
const WHY = {
  draft: "Not live yet: its short link answers 404 until an admin approves it (files named …-draft-not-live).",
  paused:
    "Paused: this code's short link answers 404 until it is active again, so its downloads are named …-paused-not-live.",
} as const;

export function NotLiveNote({ item }: { item: { id: string; kind: string; status: string } }) {
  if (item.kind !== "dynamic" || (item.status !== "draft" && item.status !== "paused")) return null;
  return (
    <p className="notice warning small-text" data-testid={`not-live-${item.id}`}>
      {WHY[item.status]}
    </p>
  );
}

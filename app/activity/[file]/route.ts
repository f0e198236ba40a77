// The activity log's CSV download: /activity/account.csv (the account's own, on /profile) and
// /activity/team.csv (the team's, for its admins on /business).
import { ACTIVITY_CSV_COLUMNS, ACTIVITY_SCOPES, activityExportRows, type ActivityScope } from "@/server/activity";
import { csvAnswer } from "@/server/http/answer";
import { sessionRoute } from "@/server/http/session-route";

export const dynamic = "force-dynamic";

const isScope = (name: string): name is ActivityScope => (ACTIVITY_SCOPES as readonly string[]).includes(name);

export const GET = sessionRoute<{ file: string }>(async (userId, _req, { file }) => {
  const scope = file.replace(/\.csv$/, "");
  if (!file.endsWith(".csv") || !isScope(scope)) return null;
  return csvAnswer(`activity-${scope}`, ACTIVITY_CSV_COLUMNS, await activityExportRows(userId, scope));
});

// The activity log records every change to team data (issue 37, point 10): each /v1 write that
// changes team data (tests/api/activity-v1-writes.ts), run against a team, must add an entry to
// the team's log. That every write is covered is checked in activity-coverage.integration.test.ts.
import { describe } from "node:test";
import { itLogs } from "./activity-log";
import { V1_WRITES } from "./activity-v1-writes";

describe("every change to team data is on the team's activity log: the /v1 writes", () => {
  itLogs(V1_WRITES);
});

// The query cache's settings, the same in the browser and in a page's server render.
import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";

/**
 * What the cache hands from a server render to the browser is what /api/trpc would have
 * answered: plain JSON (no transformer), so a date is an ISO string whichever side fetched it.
 */
const asJson = <T>(data: T): T => (data === undefined ? data : (JSON.parse(JSON.stringify(data)) as T));

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // What a page's server render fetched is not fetched again as soon as the browser shows it.
      queries: { staleTime: 30 * 1000 },
      dehydrate: {
        serializeData: asJson,
        // Queries still running when the page is sent are streamed to the browser too.
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
    },
  });
}

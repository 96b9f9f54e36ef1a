/// The batch helper of issue 47 item 4 in each language, the same in every file: `TicketItem`,
/// `BatchRetry` and `itemsToRetry`, the guide's "Retry only the failed items you need" for the
/// per-item answers of one ticket request. Written once as text: it holds nothing of a policy but
/// the names of the module's own members (`isRetryable`, `retryRefusedPrefetch`, `retryAfterHonored`).
/// `not_ready` is never retried whatever `neverRetry` says: the episode is past the last one, and
/// asking again cannot change that.
extension SwiftGenerator {
    static let batch = FixedLines(.swift, depth: 1) { w, _ in
        w.code(#"""
        /// One item of a ticket answer, as the answer gave it.
        public struct TicketItem: Sendable, Hashable {
            /// What the episode was asked for (`intent` in the request).
            public enum Intent: String, Sendable, Hashable, CaseIterable {
                /// The viewer is starting this episode.
                case play
                /// An episode the viewer may watch next.
                case prefetch
            }

            /// What the episode was asked for.
            public var intent: Intent
            /// The item's HTTP status, or nil when the item got no answer (a network error).
            public var status: Int?
            /// The item's error code, if it had one.
            public var errorCode: String?
            /// The item's `retry_after`, in seconds.
            public var retryAfterS: Double?

            /// An item with these values.
            public init(intent: Intent, status: Int? = nil, errorCode: String? = nil, retryAfterS: Double? = nil) {
                self.intent = intent
                self.status = status
                self.errorCode = errorCode
                self.retryAfterS = retryAfterS
            }
        }

        /// What `itemsToRetry` found: the items to ask for again and how long to wait first.
        public struct BatchRetry: Sendable, Hashable {
            /// The positions of the items to ask for again in the answer, in order.
            public let indices: [Int]
            /// The items to ask for again, in order.
            public let items: [TicketItem]
            /// The largest positive `retryAfterS` of those items when `retryAfterHonored`, else nil.
            public let retryAfterS: Double?
            /// `retryAfterS` in milliseconds, nil when it is nil: then wait `backoffMs`. For the guide's
            /// jitter on top, wait `backoffMs(attempt:retryAfterS:profile:)` with `retryAfterS`.
            public let waitMs: Double?

            /// A result with these values.
            public init(indices: [Int], items: [TicketItem], retryAfterS: Double?, waitMs: Double?) {
                self.indices = indices
                self.items = items
                self.retryAfterS = retryAfterS
                self.waitMs = waitMs
            }
        }

        /// The items of a ticket answer to ask for again ("Retry only the failed items you need"): never
        /// an item answered 2xx, never one with the code `not_ready` (past the last episode), a refused
        /// prefetch (429 on a `prefetch` item) only when `retryRefusedPrefetch`, and else those
        /// `isRetryable` retries (a network error as `retryOn` says).
        public static func itemsToRetry(_ items: [TicketItem]) -> BatchRetry {
            var indices: [Int] = []
            var again: [TicketItem] = []
            var largest: Double? = nil
            for (i, item) in items.enumerated() {
                if let status = item.status, status >= 200 && status < 300 { continue }
                if let code = item.errorCode, code.utf8.elementsEqual("not_ready".utf8) { continue }
                if item.intent == .prefetch && item.status == 429 && !retryRefusedPrefetch { continue }
                if !isRetryable(status: item.status, errorCode: item.errorCode) { continue }
                indices.append(i)
                again.append(item)
                if retryAfterHonored, let s = item.retryAfterS, s > 0, largest.map({ s > $0 }) ?? true { largest = s }
            }
            return BatchRetry(indices: indices, items: again, retryAfterS: largest, waitMs: largest.map { $0 * 1000 })
        }
        """#)
    }
}

extension KotlinGenerator {
    static let batch = FixedLines(.kotlin, depth: 1) { w, _ in
        w.code(#"""
        /**
         * One item of a ticket answer, as the answer gave it.
         *
         * @property intent What the episode was asked for (`intent` in the request).
         * @property status The item's HTTP status, or null when the item got no answer (a network error).
         * @property errorCode The item's error code, if it had one.
         * @property retryAfterS The item's `retry_after`, in seconds.
         */
        data class TicketItem @JvmOverloads constructor(val intent: Intent, val status: Int?, val errorCode: String? = null, val retryAfterS: Double? = null) {
            /** What an episode is asked for, by its spelling in the request. */
            enum class Intent(val value: String) {
                /** The viewer is starting this episode. */
                PLAY("play"),
                /** An episode the viewer may watch next. */
                PREFETCH("prefetch")
            }
        }

        /**
         * What `itemsToRetry` found: the items to ask for again and how long to wait first.
         *
         * @property indices The positions of the items to ask for again in the answer, in order.
         * @property items The items to ask for again, in order.
         * @property retryAfterS The largest positive `retryAfterS` of those items when `RETRY_AFTER_HONORED`, else null.
         * @property waitMs `retryAfterS` in milliseconds, null when it is null: then wait `backoffMs`. For the
         *   guide's jitter on top, wait `backoffMs(attempt, retryAfterS, profile)`.
         */
        data class BatchRetry(val indices: List<Int>, val items: List<TicketItem>, val retryAfterS: Double?, val waitMs: Double?)

        /**
         * The items of a ticket answer to ask for again ("Retry only the failed items you need"): never
         * an item answered 2xx, never one with the code `not_ready` (past the last episode), a refused
         * prefetch (429 on a `PREFETCH` item) only when `RETRY_REFUSED_PREFETCH`, and else those
         * `isRetryable` retries (a network error as `retryOn` says).
         */
        @JvmStatic
        fun itemsToRetry(items: List<TicketItem>): BatchRetry {
            val indices = ArrayList<Int>()
            val again = ArrayList<TicketItem>()
            var largest: Double? = null
            for ((i, item) in items.withIndex()) {
                val status = item.status
                if (status != null && status >= 200 && status < 300) continue
                if (item.errorCode == "not_ready") continue
                if (item.intent == TicketItem.Intent.PREFETCH && status == 429 && !RETRY_REFUSED_PREFETCH) continue
                if (!isRetryable(status, item.errorCode)) continue
                indices.add(i)
                again.add(item)
                val s = item.retryAfterS
                if (RETRY_AFTER_HONORED && s != null && s > 0.0 && (largest == null || s > largest)) largest = s
            }
            return BatchRetry(indices.toList(), again.toList(), largest, if (largest == null) null else largest * 1000.0)
        }
        """#)
    }
}

extension TypeScriptGenerator {
    static let batch = FixedLines(.typeScript, depth: 0) { w, _ in
        w.code(#"""
        /**
         * One item of a ticket answer, as the answer gave it: what the episode was asked for (`intent` in
         * the request), the item's HTTP status (null or absent when the item got no answer: a network
         * error), its error code and its `retry_after` in seconds.
         */
        export type TicketItem = { intent: "play" | "prefetch"; status?: number | null; errorCode?: string | null; retryAfterS?: number | null };

        /**
         * What `itemsToRetry` found: the positions of the items to ask for again in the answer and those
         * items, in order; the largest positive `retryAfterS` of those items when `RETRY_AFTER_HONORED`,
         * else null; and it in milliseconds (`waitMs`), null when it is null: then wait `backoffMs`. For
         * the guide's jitter on top, wait `backoffMs(attempt, retryAfterS, profile)`.
         */
        export type BatchRetry = { indices: number[]; items: TicketItem[]; retryAfterS: number | null; waitMs: number | null };

        /**
         * The items of a ticket answer to ask for again ("Retry only the failed items you need"): never
         * an item answered 2xx, never one with the code `not_ready` (past the last episode), a refused
         * prefetch (429 on a `prefetch` item) only when `RETRY_REFUSED_PREFETCH`, and else those
         * `isRetryable` retries (a network error as `retryOn` says).
         */
        export function itemsToRetry(items: readonly TicketItem[]): BatchRetry {
            const indices: number[] = [];
            const again: TicketItem[] = [];
            let largest: number | null = null;
            let i = -1;
            for (const item of items) {
                i++;
                const status = item.status;
                if (status !== null && status !== undefined && status >= 200 && status < 300) continue;
                if (item.errorCode === "not_ready") continue;
                if (item.intent === "prefetch" && status === 429 && !RETRY_REFUSED_PREFETCH) continue;
                if (!isRetryable(status, item.errorCode)) continue;
                indices.push(i);
                again.push(item);
                const s = item.retryAfterS;
                if (RETRY_AFTER_HONORED && s !== null && s !== undefined && s > 0 && (largest === null || s > largest)) largest = s;
            }
            return { indices: indices, items: again, retryAfterS: largest, waitMs: largest === null ? null : largest * 1000 };
        }
        """#)
    }
}

import PolicySource

/// The canonical policy of SPEC §1: what `policyc init` writes and `Policies/playback.yaml` holds.
public enum Canonical {
    public static let text = """
version: 1
policy: playback
description: Ticket requests made by the iOS and Android players.

retry:
  profiles:
    interactive:
      kind: interactive     # a viewer is waiting
      maxRetries: 3         # retries after the first attempt
      base: 500ms           # first backoff step
      cap: 8s               # largest backoff step
      timeout: 8s           # per attempt
      deadline: 15s         # the whole call, retries included
    background:
      kind: background      # a sync job
      maxRetries: 5
      base: 1s
      cap: 30s
      timeout: 15s
      deadline: 120s
  retryOn: [network, 429, 500, 502, 503]
  neverRetry:
    - status: 503
      code: not_ready
  backoff: full-jitter
  retryAfter:
    honor: true
    maxJitter: 1s
  budget:
    ratio: 10%
    minPerMinute: 10

prefetch:
  ahead: 2                  # episodes N+1 and N+2 ride along with N in one request
  onlyUnlocked: true
  retryRefused: false

tickets:
  reuseKey: [viewer, device, episode, intent]
  stopReuseBefore: 5m       # stop reusing a ticket 5 minutes before expires_at
  viewerRef: per-viewer-device

"""

    /// The canonical policy under another name (`policyc init --policy NAME`).
    public static func text(policy name: String) -> String {
        text.replacingFirst("policy: playback\n", with: "policy: \(name)\n")
    }
}

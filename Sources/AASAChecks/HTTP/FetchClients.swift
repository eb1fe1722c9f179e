import AsyncHTTPClient
import Synchronization

/// The HTTP clients of one ``HTTPFetcher``, made on first use and shared by
/// its fetches.
///
/// A client owns a TLS context, and a verifying context holds every trust
/// root (about 1 MB with the system's); one per fetch cost 920 MB over 300
/// hosts. Clients differ only where AsyncHTTPClient makes it a per-client
/// setting: whether certificates are verified, and the DNS overrides
/// (`--resolve`, `--base-url`). A run whose routes are all in the
/// configuration uses one client; a route given per request gets its own,
/// and idle ones beyond ``idleLimit`` are shut down, oldest first.
final class FetchClients: Sendable {
    /// What sets one client apart from another.
    struct Key: Hashable, Sendable {
        /// Accepts any certificate: the probe that reads a rejected one.
        var insecure: Bool
        /// Host → address to connect to instead of resolving it.
        var routes: [String: String]
    }

    /// Idle clients kept for reuse; more are shut down.
    static let idleLimit = 4

    private struct Entry {
        let client: HTTPClient
        var leases: Int
        var lastUse: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var uses = 0
        var created = 0
        var closed = false
    }

    private let state = Mutex(State())
    private let make: @Sendable (Key) -> HTTPClient

    init(make: @escaping @Sendable (Key) -> HTTPClient) {
        self.make = make
    }

    /// Runs `body` with the client for `key`, which is not shut down meanwhile.
    func withClient<Result: Sendable>(
        _ key: Key,
        _ body: (HTTPClient) async throws -> Result
    ) async throws -> Result {
        let client = try lease(key)
        do {
            let result = try await body(client)
            release(key)
            return result
        } catch {
            release(key)
            throw error
        }
    }

    /// How many clients have been made.
    var created: Int { state.withLock { $0.created } }

    /// How many clients are not shut down.
    var alive: Int { state.withLock { $0.entries.count } }

    /// Shuts every client down; a fetch started later fails.
    func shutdown() async {
        let clients = state.withLock { state in
            state.closed = true
            defer { state.entries = [:] }
            return state.entries.values.map(\.client)
        }
        for client in clients { try? await client.shutdown() }
    }

    deinit {
        // A fetcher dropped without `shutdown()`: AsyncHTTPClient requires
        // every client to be shut down; the client stays alive until it is.
        for entry in state.withLock({ $0.entries.values }) { entry.client.shutdown { _ in } }
    }

    private func lease(_ key: Key) throws(FetchClientsClosed) -> HTTPClient {
        var retired: [HTTPClient] = []
        let client = try state.withLock { state throws(FetchClientsClosed) -> HTTPClient in
            guard !state.closed else { throw FetchClientsClosed() }
            state.uses += 1
            if var entry = state.entries[key] {
                entry.leases += 1
                entry.lastUse = state.uses
                state.entries[key] = entry
                return entry.client
            }
            let client = make(key)
            state.created += 1
            state.entries[key] = Entry(client: client, leases: 1, lastUse: state.uses)
            let idle = state.entries.filter { $0.value.leases == 0 }.sorted { $0.value.lastUse < $1.value.lastUse }
            for (idleKey, entry) in idle.prefix(max(0, idle.count - Self.idleLimit)) {
                state.entries[idleKey] = nil
                retired.append(entry.client)
            }
            return client
        }
        for old in retired { old.shutdown { _ in } }
        return client
    }

    private func release(_ key: Key) {
        state.withLock { state in state.entries[key]?.leases -= 1 }
    }
}

/// A fetch after ``FetchClients/shutdown()``.
struct FetchClientsClosed: Error, CustomStringConvertible {
    var description: String { "the fetcher was shut down" }
}

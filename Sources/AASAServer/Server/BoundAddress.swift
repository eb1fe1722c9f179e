import NIOConcurrencyHelpers
import NIOCore

/// The address a listener ended up bound to, for whoever needs it once it is
/// known: tests binding port 0, the CLI's startup line.
public final class BoundAddress: Sendable {
    private enum State {
        case waiting([CheckedContinuation<SocketAddress, Error>])
        case bound(SocketAddress)
        case failed(any Error)
    }

    private let state = NIOLockedValueBox(State.waiting([]))

    public init() {}

    /// Waits until the listener is bound (or failed to bind).
    public func get() async throws -> SocketAddress {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<SocketAddress, Error>? = state.withLockedValue { state in
                switch state {
                case .waiting(var waiters):
                    waiters.append(continuation)
                    state = .waiting(waiters)
                    return nil
                case .bound(let address):
                    return .success(address)
                case .failed(let error):
                    return .failure(error)
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// The port bound, once bound.
    public func port() async throws -> Int {
        guard let port = try await get().port else {
            throw StartupError(message: "listener has no port")
        }
        return port
    }

    func resolve(_ result: Result<SocketAddress, Error>) {
        let waiters: [CheckedContinuation<SocketAddress, Error>] = state.withLockedValue { state in
            guard case .waiting(let waiters) = state else { return [] }
            switch result {
            case .success(let address): state = .bound(address)
            case .failure(let error): state = .failed(error)
            }
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}

/// Counts open serving connections against `limits.maxConnections`.
final class ConnectionCounter: Sendable {
    private let count = NIOLockedValueBox(0)
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    func acquire() -> Bool {
        count.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func release() {
        count.withLockedValue { $0 -= 1 }
    }
}

import NIOConcurrencyHelpers
import NIOCore

/// The address a listener ended up bound to, for whoever needs it once it is
/// known: tests binding port 0, the CLI's startup line.
public final class BoundAddress: Sendable {
    private enum State {
        case waiting([Int: CheckedContinuation<SocketAddress, Error>])
        case bound(SocketAddress, (any Channel)?)
        case failed(any Error)
    }

    private let state = NIOLockedValueBox(State.waiting([:]))
    private let nextWaiter = NIOLockedValueBox(0)

    public init() {}

    /// Waits until the listener is bound (or failed to bind). Throws
    /// `CancellationError` if the waiting task is cancelled first, so a
    /// server that never binds cannot hang its caller past a deadline.
    public func get() async throws -> SocketAddress {
        let id = nextWaiter.withLockedValue { id in
            defer { id += 1 }
            return id
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<SocketAddress, Error>? = state.withLockedValue { state in
                    switch state {
                    case .waiting(var waiters):
                        if Task.isCancelled { return .failure(CancellationError()) }
                        waiters[id] = continuation
                        state = .waiting(waiters)
                        return nil
                    case .bound(let address, _):
                        return .success(address)
                    case .failed(let error):
                        return .failure(error)
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter: CheckedContinuation<SocketAddress, Error>? = state.withLockedValue { state in
                guard case .waiting(var waiters) = state, let waiter = waiters.removeValue(forKey: id) else {
                    return nil
                }
                state = .waiting(waiters)
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// The port bound, once bound.
    public func port() async throws -> Int {
        guard let port = try await get().port else {
            throw StartupError(message: "listener has no port")
        }
        return port
    }

    /// The listening channel, once bound (tests close it to see the service end).
    var listener: (any Channel)? {
        state.withLockedValue { state in
            guard case .bound(_, let channel) = state else { return nil }
            return channel
        }
    }

    func resolve(_ result: Result<SocketAddress, Error>, listener: (any Channel)? = nil) {
        let waiters: [CheckedContinuation<SocketAddress, Error>] = state.withLockedValue { state in
            guard case .waiting(let waiters) = state else { return [] }
            switch result {
            case .success(let address): state = .bound(address, listener)
            case .failure(let error): state = .failed(error)
            }
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}

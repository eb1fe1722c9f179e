import Logging
import NIOConcurrencyHelpers
import NIOCore

/// A warning that can fire thousands of times a second under attack (a
/// refused connection, a failed accept), logged at most once per interval
/// with how many times it happened since the previous line.
final class RateLimitedLog: Sendable {
    private struct State {
        var lastLogged: NIODeadline?
        var suppressed = 0
    }

    private let logger: Logger
    private let message: Logger.Message
    private let interval: TimeAmount
    private let now: @Sendable () -> NIODeadline
    private let state = NIOLockedValueBox(State())

    /// The interval of the server's refusal and accept-failure warnings.
    static let defaultInterval: TimeAmount = .seconds(10)

    /// - Parameter now: the clock; tests pass their own.
    init(
        logger: Logger,
        message: Logger.Message,
        interval: TimeAmount = RateLimitedLog.defaultInterval,
        now: @escaping @Sendable () -> NIODeadline = { .now() }
    ) {
        self.logger = logger
        self.message = message
        self.interval = interval
        self.now = now
    }

    /// Counts one occurrence; logs it (with the ones suppressed since the
    /// last line) if the last line is older than the interval.
    func record(_ metadata: @autoclosure () -> Logger.Metadata = [:]) {
        let time = now()
        let count: Int? = state.withLockedValue { state in
            state.suppressed += 1
            if let last = state.lastLogged, time - last < interval { return nil }
            state.lastLogged = time
            defer { state.suppressed = 0 }
            return state.suppressed
        }
        guard let count else { return }
        var metadata = metadata()
        metadata["count"] = .stringConvertible(count)
        logger.warning(message, metadata: metadata)
    }
}

import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The `/status` body, built off the event loops, one build at a time, and
/// kept until the served state changes.
///
/// At 10,000 hosts the report is megabytes of JSON and takes a good part of
/// a second to build; built on an event loop, it stalled every connection
/// of that loop, serving ones included. Here it is built on a thread pool,
/// and requests arriving during a build wait for that build instead of
/// starting their own. The body is kept for the snapshot and status
/// revision it was built from: the report holds no request counts and no
/// clock, so nothing in it changes until a reload or a failed load, and
/// repeated scrapes in between cost a lookup.
final class StatusCache: Sendable {
    /// Builds the body for one snapshot and the status read beside it.
    typealias Render = @Sendable (SiteSnapshot, SiteStore.Status) -> [UInt8]

    private let store: SiteStore
    private let threadPool: NIOThreadPool
    private let render: Render
    private let state = NIOLockedValueBox(State())

    /// The state a body was built from. The snapshot is held weakly: the
    /// cache must not keep a replaced snapshot (every served file) alive.
    private struct Key {
        weak var snapshot: SiteSnapshot?
        let revision: Int

        func matches(_ snapshot: SiteSnapshot, _ revision: Int) -> Bool {
            self.snapshot === snapshot && self.revision == revision
        }
    }

    private struct State {
        var built: (key: Key, body: ByteBuffer)?
        var building: (key: Key, body: EventLoopFuture<ByteBuffer>)?
    }

    private enum Step {
        case ready(ByteBuffer)
        case join(EventLoopFuture<ByteBuffer>)
        /// A build of an older state is under way: wait for it, then look again.
        case wait(EventLoopFuture<ByteBuffer>)
        case build(EventLoopPromise<ByteBuffer>)
    }

    init(store: SiteStore, threadPool: NIOThreadPool = .singleton, render: @escaping Render) {
        self.store = store
        self.threadPool = threadPool
        self.render = render
    }

    /// The body for the current state, completed on `loop`. A buffer, so
    /// that every answer written from it shares one copy of the bytes (a
    /// pipelined burst of scrapes is not a copy of megabytes each).
    func body(on loop: any EventLoop) -> EventLoopFuture<ByteBuffer> {
        let (snapshot, status) = store.snapshotAndStatus
        let step = state.withLockedValue { state -> Step in
            if let built = state.built, built.key.matches(snapshot, status.revision) {
                return .ready(built.body)
            }
            if let building = state.building {
                return building.key.matches(snapshot, status.revision) ? .join(building.body) : .wait(building.body)
            }
            let promise = loop.makePromise(of: ByteBuffer.self)
            state.building = (Key(snapshot: snapshot, revision: status.revision), promise.futureResult)
            return .build(promise)
        }
        switch step {
        case .ready(let body):
            return loop.makeSucceededFuture(body)
        case .join(let building):
            return building.hop(to: loop)
        case .wait(let building):
            return building.hop(to: loop)
                .map { _ in () }
                .recover { _ in () }
                .flatMap { self.body(on: loop) }
        case .build(let promise):
            let render = self.render
            threadPool.runIfActive(eventLoop: loop) { ByteBuffer(bytes: render(snapshot, status)) }
                .whenComplete { result in
                    self.state.withLockedValue { state in
                        state.building = nil
                        if case .success(let body) = result {
                            state.built = (Key(snapshot: snapshot, revision: status.revision), body)
                        }
                    }
                    promise.completeWith(result)
                }
            return promise.futureResult
        }
    }
}

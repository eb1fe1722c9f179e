import NIOConcurrencyHelpers
import Testing

@testable import AASAServer

/// The descriptor budget as a calculation: raising the open-file limit as
/// far as the caps need, lowering the caps when the limit cannot be raised
/// far enough, and refusing to start when not even the reserve fits. (The
/// process tests in AASACLITests run it under a real `ulimit -n`.)
@Suite("Descriptor budget")
struct DescriptorBudgetTests {
    /// A stand-in for the process's limit, recording raises.
    final class FakeLimit: Sendable {
        private let state: NIOLockedValueBox<(limit: DescriptorLimit, raises: [Int])>
        let refuses: Bool

        init(soft: Int, hard: Int, ceiling: Int? = nil, refuses: Bool = false) {
            state = NIOLockedValueBox((DescriptorLimit(soft: soft, hard: hard, ceiling: ceiling), []))
            self.refuses = refuses
        }

        var raises: [Int] { state.withLockedValue { $0.raises } }

        var source: DescriptorLimit.Source {
            DescriptorLimit.Source(
                read: { self.state.withLockedValue { $0.limit } },
                raise: { soft in
                    self.state.withLockedValue { state in
                        state.raises.append(soft)
                        guard !self.refuses, soft <= state.limit.ceiling else { return false }
                        state.limit.soft = soft
                        return true
                    }
                }
            )
        }
    }

    static let defaults = DescriptorBudget(maxConnections: 10_000, adminMaxConnections: 64, eventLoops: 2)

    @Test func aLimitThatFitsIsLeftAlone() {
        let limit = FakeLimit(soft: 20_000, hard: 20_000)
        let plan = Self.defaults.settle(limit.source)
        #expect(limit.raises.isEmpty)
        #expect(plan.effectiveMaxConnections == 10_000)
        #expect(plan.effectiveAdminMaxConnections == 64)
        #expect(!plan.isLowered && plan.raisedFrom == nil && plan.shortage == nil)
    }

    /// Linux under systemd's defaults: soft 1024, hard 524288.
    @Test func theSoftLimitIsRaisedAsFarAsNeededNotToTheHardLimit() {
        let limit = FakeLimit(soft: 1024, hard: 524_288)
        let plan = Self.defaults.settle(limit.source)
        #expect(limit.raises == [Self.defaults.needed])
        #expect(plan.limit?.soft == 10_000 + 64 + Self.defaults.reserve)
        #expect(plan.raisedFrom == 1024)
        #expect(!plan.isLowered)
    }

    /// macOS: soft 256, hard RLIM_INFINITY, `kern.maxfilesperproc` the ceiling.
    @Test func aDarwinCeilingBoundsTheRaiseAndTheCapsFitUnderIt() {
        let budget = DescriptorBudget(maxConnections: 10_000, adminMaxConnections: 64, eventLoops: 16)
        let limit = FakeLimit(soft: 256, hard: Int.max, ceiling: 10_240)
        let plan = budget.settle(limit.source)
        #expect(limit.raises == [10_240])
        #expect(plan.limit?.soft == 10_240)
        #expect(plan.isLowered)
        #expect(plan.effectiveMaxConnections + plan.effectiveAdminMaxConnections! + budget.reserve <= 10_240)
    }

    /// `ulimit -n 96` sets soft and hard: nothing to raise, the caps shrink.
    @Test func aHardLimitBelowTheNeedLowersTheCapsAroundTheReserve() {
        let limit = FakeLimit(soft: 96, hard: 96)
        let plan = Self.defaults.settle(limit.source)
        #expect(limit.raises.isEmpty)
        #expect(plan.isLowered)
        #expect(Self.defaults.reserve == 56)
        #expect(plan.effectiveAdminMaxConnections == 5)
        #expect(plan.effectiveMaxConnections == 35)
        #expect(plan.shortage == nil)
    }

    @Test func aRefusedRaiseKeepsTheLimitAndLowersTheCaps() {
        let limit = FakeLimit(soft: 1024, hard: 4096, refuses: true)
        let plan = Self.defaults.settle(limit.source)
        #expect(limit.raises == [4096])
        #expect(plan.limit?.soft == 1024 && plan.raisedFrom == nil)
        #expect(plan.effectiveMaxConnections + plan.effectiveAdminMaxConnections! == 1024 - Self.defaults.reserve)
    }

    @Test func withTheAdminPortOffTheServingPortGetsEverythingLeft() {
        let budget = DescriptorBudget(maxConnections: 10_000, adminMaxConnections: nil, eventLoops: 2)
        let plan = budget.plan(for: DescriptorLimit(soft: 96, hard: 96))
        #expect(plan.effectiveMaxConnections == 40)
        #expect(plan.effectiveAdminMaxConnections == nil)
    }

    /// The admin port keeps what the serving cap leaves, up to its own cap.
    @Test func theAdminPortKeepsWhatTheServingCapLeaves() {
        let budget = DescriptorBudget(maxConnections: 100, adminMaxConnections: 64, eventLoops: 2)
        let plan = budget.plan(for: DescriptorLimit(soft: 56 + 150, hard: 206))
        #expect(plan.effectiveMaxConnections == 100)
        #expect(plan.effectiveAdminMaxConnections == 50)
    }

    /// The decision at the bottom: below the reserve plus one connection per
    /// listener, `aasa serve` refuses to start (exit 2) rather than serve nothing.
    @Test(arguments: [(64, 57, true), (64, 58, false), (nil, 56, true), (nil, 57, false)] as [(Int?, Int, Bool)])
    func belowTheReservePlusOneConnectionPerListenerIsAShortage(admin: Int?, soft: Int, short: Bool) throws {
        let budget = DescriptorBudget(maxConnections: 10_000, adminMaxConnections: admin, eventLoops: 2)
        let plan = budget.plan(for: DescriptorLimit(soft: soft, hard: soft))
        #expect((plan.shortage != nil) == short, "admin \(String(describing: admin)), limit \(soft)")
        if let shortage = plan.shortage {
            #expect(shortage.minimum == soft + 1)
            #expect(shortage.description.contains("ulimit -n \(budget.needed)"))
            #expect(shortage.description.contains("LimitNOFILE=\(budget.needed)"))
            #expect(shortage.description.contains("--ulimit nofile=\(budget.needed)"))
        } else {
            #expect(plan.effectiveMaxConnections >= 1)
            #expect(plan.effectiveAdminMaxConnections.map { $0 >= 1 } ?? true)
        }
    }

    /// Whatever the limit, the caps never eat into the reserve, never
    /// exceed what was configured, and every listener keeps a connection.
    @Test func theReserveStaysFreeAtEveryLimit() {
        for admin in [nil, 1, 64] as [Int?] {
            for configured in [1, 30, 10_000] {
                let budget = DescriptorBudget(maxConnections: configured, adminMaxConnections: admin, eventLoops: 4)
                for soft in stride(from: budget.reserve, through: budget.needed + 10, by: 1) {
                    let plan = budget.plan(for: DescriptorLimit(soft: soft, hard: soft))
                    let admitted = plan.effectiveMaxConnections + (plan.effectiveAdminMaxConnections ?? 0)
                    #expect(admitted + budget.reserve <= max(soft, budget.reserve), "limit \(soft)")
                    #expect(plan.effectiveMaxConnections <= configured)
                    #expect((plan.effectiveAdminMaxConnections ?? 0) <= (admin ?? 0))
                    if plan.shortage == nil {
                        #expect(plan.effectiveMaxConnections >= 1 && (plan.effectiveAdminMaxConnections ?? 1) >= 1)
                    }
                    #expect(plan.isLowered == (soft < budget.needed), "limit \(soft)")
                }
            }
        }
    }

    @Test func anUnreadableLimitKeepsTheConfiguredCaps() {
        let plan = Self.defaults.settle(DescriptorLimit.Source(read: { nil }, raise: { _ in false }))
        #expect(plan.effectiveMaxConnections == 10_000 && plan.shortage == nil && !plan.isLowered)
    }

    /// The real `getrlimit`: a soft limit at most the hard one and the ceiling.
    @Test func theProcessLimitReads() throws {
        let limit = try #require(DescriptorLimit.current())
        #expect(limit.soft > 0 && limit.soft <= limit.hard && limit.soft <= limit.ceiling)
        #expect(limit.ceiling <= limit.hard)
    }
}

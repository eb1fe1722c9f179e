import Testing

@testable import aasa

@Suite("CPU affinity")
struct CPUAffinityTests {
    @Test(arguments: [("0", 1), ("0-1", 2), ("0-3,6", 5), ("1,3,5-7", 5), (" 0-1", 2)])
    func counts(list: String, expected: Int) {
        #expect(CPUAffinity.count(list: Substring(list)) == expected)
    }

    @Test(arguments: ["", "a", "3-1", "0--1"])
    func rejects(list: String) {
        #expect(CPUAffinity.count(list: Substring(list)) == nil)
    }

    @Test func thisProcessRunsOnSomeCPU() {
        #expect((CPUAffinity.count() ?? 0) >= 1)
    }
}

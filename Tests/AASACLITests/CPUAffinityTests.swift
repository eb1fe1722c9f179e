import Foundation
import Testing

@testable import aasa

@Suite("CPU affinity")
struct CPUAffinityTests {
    #if os(Linux)
    static let isLinux = true
    #else
    static let isLinux = false
    #endif

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

    @Test(.enabled(if: isLinux, "the allowed CPUs are read from the proc file system, which only Linux has"))
    func onLinuxTheCountIsTheAllowedList() throws {
        // portable: runs on Linux only (the trait above); elsewhere it shows as skipped.
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        let list = line.dropFirst("Cpus_allowed_list:".count)
        #expect(CPUAffinity.count() == CPUAffinity.count(list: list))
    }

    @Test(.disabled(if: isLinux, "Linux counts the allowed CPUs instead"))
    func elsewhereTheCountIsTheActiveCores() {
        #expect(CPUAffinity.count() == ProcessInfo.processInfo.activeProcessorCount)
    }
}

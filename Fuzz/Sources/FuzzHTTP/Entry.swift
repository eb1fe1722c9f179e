import CLibFuzzer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process entry: hands the command line to libFuzzer's driver.
///
/// SwiftPM links every executable target with its own `main` (renamed to
/// `FuzzHTTP_main`), so libFuzzer's `main` from the runtime is never used;
/// `LLVMFuzzerRunDriver` is the documented way to run libFuzzer from a
/// program that has its own.
@main
enum Entry {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            guard let data else { return 0 }
            return fuzz(data, size)
        }
        exit(status)
    }
}

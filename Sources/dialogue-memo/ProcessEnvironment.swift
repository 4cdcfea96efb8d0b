import Foundation

enum ProcessEnvironment {
    static func ensurePassiveOpenMP() {
        guard getenv("OMP_WAIT_POLICY") == nil else { return }
        setenv("OMP_WAIT_POLICY", "PASSIVE", 1)
        var argv: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) }
        argv.append(nil)
        execv("/proc/self/exe", argv)
        // exec failed (no /proc?): carry on; only performance suffers.
    }
}

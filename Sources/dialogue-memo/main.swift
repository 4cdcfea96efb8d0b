import Foundation

// ggml's OpenMP threads spin while waiting unless OMP_WAIT_POLICY is PASSIVE when the process
// starts (setting it later is not reliable); two spinning engines on 2 cores collapse. So the
// program re-executes itself once with the variable set (if exec fails, only speed suffers).
if getenv("OMP_WAIT_POLICY") == nil {
    setenv("OMP_WAIT_POLICY", "PASSIVE", 1)
    var argv: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) }
    argv.append(nil)
    execv("/proc/self/exe", argv)
}

let status = await CommandLineInterface.run(Array(CommandLine.arguments.dropFirst()))
exit(status)

import Foundation

// ggml's OpenMP threads spin while waiting unless OMP_WAIT_POLICY is PASSIVE when the process
// starts (setting it later is not reliable); two spinning engines on 2 cores collapse. So the
// program re-executes itself once with the variable set.
ProcessEnvironment.ensurePassiveOpenMP()

let status = await CommandLineInterface.run(Array(CommandLine.arguments.dropFirst()))
exit(status)

import CMalloc
import Foundation
import Transcription

TimeMarks.mark("main")

// ggml's OpenMP threads spin while waiting unless OMP_WAIT_POLICY is PASSIVE when the process
// starts (setting it later is not reliable); two spinning engines on 2 cores collapse. So the
// program re-executes itself once with the variable set (if exec fails, only speed suffers).
if getenv("OMP_WAIT_POLICY") == nil {
    setenv("OMP_WAIT_POLICY", "PASSIVE", 1)
    var argv: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) }
    argv.append(nil)
    execv("/proc/self/exe", argv)
}

// Answer audio (hundreds of KB to a few MB) is copied at every pause and every half second of
// speech. After the first such block is freed glibc raises its mmap threshold, so later copies
// come from the heap, whose fragments stay resident in a dialogue's peak memory. A fixed threshold
// gives each block back when it is freed. Not for `transcribe` and `eval`, which hold no dialogue
// and decode files with whisper's beam: its sampling would then map and unmap blocks at every
// token (the dialogue's live passes decode greedily and are not slowed; its final passes use the
// beam, in the background, and pay that, unmeasured in the dialogue so far).
let decodesFilesWithTheBeam = ["transcribe", "eval"].contains(CommandLine.arguments.dropFirst().first)
if !decodesFilesWithTheBeam { _ = cmalloc_fix_mmap_threshold(128 * 1024) }
// `transcribe` loads whisper on a thread of Swift's pool, whose own arena grew a page at a time
// while the model loaded (2,200 mprotect calls, about 10 ms of a 150 ms load): one process, one
// file, so the main arena serves every thread.
if CommandLine.arguments.dropFirst().first == "transcribe" { _ = cmalloc_one_arena() }

// The notes commands, the settings and the help run no engine, and start without ggml (its
// first call sets up its CPU code: 14 ms or more).
let runsNoEngine = ["list", "show", "search", "tasks", "delete", "edit", "play", "config", "completions", "manpage",
                    "--version", "--help", "-h"].contains(CommandLine.arguments.dropFirst().first)
if !runsNoEngine { EngineBackends.loadIfSeparate() }
let status = await CommandLineInterface.run(Array(CommandLine.arguments.dropFirst()))
exit(status)

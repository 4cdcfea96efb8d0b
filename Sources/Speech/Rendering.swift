import Foundation

/// Collects the callback's buffers. The end of synthesis (a NULL buffer) seals the rendering, so
/// a voice that reports the end twice cannot append (or restart) anything after it. A non-NULL
/// buffer of zero samples is only a pause in delivery (espeak-ng documents this).
final class Rendering {
    private(set) var samples: [Int16] = []
    private(set) var sealed = false

    func receive(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int) {
        guard !sealed else { return }
        guard let wav else { sealed = true; return }
        guard count > 0 else { return }
        samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: count))
    }
}

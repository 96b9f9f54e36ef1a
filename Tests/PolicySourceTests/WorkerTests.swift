import Testing
import PolicySource
import PolicyCheck
import TestSupport

/// The pieces two threads share: every index is taken once, whichever thread is faster, and
/// `Worker.map` gives `map`'s array.
@Suite struct WorkerTests {
    @Test(arguments: [0, 1, 511, 512, 513, 5_000])
    func everyIndexIsTakenOnceByWhicheverThreadTakesIt(_ count: Int) {
        let pieces = Pieces(count)
        #expect(pieces.pieceCount == (count + 511) / 512)
        let taken = Handover<[Range<Int>]>()
        let worker = Worker {
            var mine: [Range<Int>] = []
            while let piece = pieces.take() { mine.append(piece) }
            taken.value = mine
        }
        var mine: [Range<Int>] = []
        while let piece = pieces.take() { mine.append(piece) }
        worker?.join()
        let all = (mine + (taken.value ?? [])).sorted { $0.lowerBound < $1.lowerBound }
        #expect(all.flatMap { Array($0) } == Array(0..<count))
        // Pieces start on a multiple of the size: the decoder counts each piece by it.
        #expect(all.allSatisfy { $0.lowerBound % pieces.size == 0 && $0.count <= pieces.size })
        #expect(pieces.take() == nil)
    }

    @Test func mapInPiecesIsMap() {
        for count in [0, 1, 4095, 4096, 10_000] {
            let made = Worker.map(count, apart: true) { i in "item \(i)" }
            #expect(made == (0..<count).map { "item \($0)" })
        }
    }
}

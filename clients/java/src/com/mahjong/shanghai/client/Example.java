package com.mahjong.shanghai.client;

import com.mahjong.shanghai.v1.Flower;
import com.mahjong.shanghai.v1.Hand;
import com.mahjong.shanghai.v1.Meld;
import com.mahjong.shanghai.v1.MeldKind;
import com.mahjong.shanghai.v1.Outcome;
import com.mahjong.shanghai.v1.SettleBatchRequest;
import com.mahjong.shanghai.v1.SettleRequest;
import com.mahjong.shanghai.v1.SettleResponse;
import com.mahjong.shanghai.v1.Tile;
import com.mahjong.shanghai.v1.Winner;
import com.mahjong.shanghai.v1.WinnerResult;
import java.time.Duration;
import java.util.List;

/**
 * The Java client's tour, against a server at HOST:PORT: a legal settle (waiting while the
 * server is UNAVAILABLE), an illegal win, a win under the knock with a dragon flower, a malformed
 * request, a deadline.
 */
public final class Example {
    /** Worked example 1's hand: 111m 555m 999p EEE 77s. */
    static final List<Tile> EXAMPLE_1_TILES = List.of(Tile.TILE_M1, Tile.TILE_M1, Tile.TILE_M1, Tile.TILE_M5,
            Tile.TILE_M5, Tile.TILE_M5, Tile.TILE_P9, Tile.TILE_P9, Tile.TILE_P9, Tile.TILE_EAST, Tile.TILE_EAST,
            Tile.TILE_EAST, Tile.TILE_S7, Tile.TILE_S7);

    private Example() {}

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 1) {
            System.err.println("usage: java -jar shmj-client.jar HOST:PORT");
            System.exit(2);
        }
        try (ScoringClient client = new ScoringClient(args[0], Duration.ofSeconds(2))) {
            tour(client);
        } catch (IllegalArgumentException e) {
            System.err.println("shmj-client: " + e.getMessage());
            System.exit(2);
        } catch (ScoringException e) {
            System.err.println("shmj-client: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void tour(ScoringClient client) throws ScoringException, InterruptedException {
        // Worked example 1 of RULES.md; a client started before its server retries until it answers.
        SettleResponse legal = client.settleWhenAvailable(workedExample1(), Duration.ofSeconds(30),
                e -> System.err.println("retrying: " + e.code()));
        System.out.println("legal: seat_deltas " + legal.getSeatDeltasList());

        // Worked example 6: a complete hand with no qualifying pattern is an answer, not an error.
        for (WinnerResult winner : client.settle(workedExample6()).getWinnersList()) {
            System.out.println("illegal: seat " + winner.getSeat() + " legal " + winner.getLegal()
                    + " reasons " + winner.getIllegalReasonsList());
        }

        // RULES.md section 14: 红中 held as a flower, by a seat that has knocked (敲).
        SettleResponse knocked = client.settle(knockedWin());
        System.out.println("knock: value " + knocked.getWinners(0).getValue() + " seat_deltas "
                + knocked.getSeatDeltasList());

        // 13 tiles where 14 are needed: INVALID_ARGUMENT, the BadRequest naming the field.
        try {
            client.settle(selfDraw(EXAMPLE_1_TILES.subList(0, 13)));
        } catch (ScoringException e) {
            System.out.println("malformed: " + e.code());
            for (ScoringException.FieldViolation v : e.violations()) {
                System.out.println("  " + v.field() + ": " + v.description());
            }
        }

        // 2,000 hands cannot be settled in a millisecond: the call ends DEADLINE_EXCEEDED.
        SettleBatchRequest.Builder batch = SettleBatchRequest.newBuilder();
        for (int i = 0; i < 2000; i++) {
            batch.addRequests(workedExample1().toBuilder().setRequestId("hand-" + i));
        }
        try {
            client.settleBatch(batch.build(), Duration.ofMillis(1));
            System.out.println("deadline: answered within 1 ms");
        } catch (ScoringException e) {
            System.out.println("deadline: " + e.code());
        }
    }

    /** Seat 0 self-draws 111m 555m 999p EEE 77s with two flowers: seat_deltas [36, -12, -12, -12]. */
    static SettleRequest workedExample1() {
        return selfDraw(EXAMPLE_1_TILES);
    }

    /** Seat 0 self-draws 7s with these concealed tiles and the flowers spring and plum. */
    static SettleRequest selfDraw(List<Tile> concealed) {
        Hand hand = Hand.newBuilder()
                .addAllConcealed(concealed)
                .setWinningTile(Tile.TILE_S7)
                .addFlowers(Flower.FLOWER_SPRING)
                .addFlowers(Flower.FLOWER_PLUM)
                .build();
        return SettleRequest.newBuilder()
                .setProfile("classic")
                .setOutcome(Outcome.OUTCOME_SELF_DRAW)
                .addWinners(Winner.newBuilder().setSeat(0).setHand(hand))
                .build();
    }

    /**
     * Worked example 1 with 红中 held as a flower (Hand.dragon_flowers), by seat 0, which has
     * knocked (declared_seats), under the built-in qiaoma profile (敲麻, RULES.md 14.10), asked for
     * by name as a backend running a 敲麻 room would: (1 + 4 花) × 2^2 番 = 20 a share.
     */
    static SettleRequest knockedWin() {
        SettleRequest request = workedExample1();
        Winner winner = request.getWinners(0);
        return request.toBuilder()
                .setProfile("qiaoma")
                .setWinners(0, winner.toBuilder().setHand(winner.getHand().toBuilder().addDragonFlowers(Tile.TILE_RED)))
                .addDeclaredSeats(0)
                .build();
    }

    /** Seat 1 wins 456p 789s 234s EE [123m] on seat 3's discard of E. */
    static SettleRequest workedExample6() {
        Hand hand = Hand.newBuilder()
                .addAllConcealed(List.of(Tile.TILE_P4, Tile.TILE_P5, Tile.TILE_P6, Tile.TILE_S7, Tile.TILE_S8,
                        Tile.TILE_S9, Tile.TILE_S2, Tile.TILE_S3, Tile.TILE_S4, Tile.TILE_EAST, Tile.TILE_EAST))
                .setWinningTile(Tile.TILE_EAST)
                .addMelds(Meld.newBuilder().setKind(MeldKind.MELD_KIND_CHOW).setFromSeat(0)
                        .addAllTiles(List.of(Tile.TILE_M1, Tile.TILE_M2, Tile.TILE_M3)))
                .build();
        return SettleRequest.newBuilder()
                .setProfile("classic")
                .setOutcome(Outcome.OUTCOME_DISCARD)
                .setDiscarderSeat(3)
                .addWinners(Winner.newBuilder().setSeat(1).setHand(hand))
                .build();
    }
}

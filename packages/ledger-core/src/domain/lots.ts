import { assert } from './errors.js';
import { Decimal, QUANTITY_PLACES, roundToCents, ZERO } from './money.js';

/** One buy's shares, held until sold (first in, first out). */
interface Lot {
  txnId: string;
  quantity: Decimal;
  cost: Decimal;
  /** Shares of the lot already sold. */
  taken: Decimal;
}

/** What a sale took from one lot: the shares and their cost. */
export interface LotRelief {
  lotTxnId: string;
  quantity: Decimal;
  cost: Decimal;
}

/**
 * Cost of the first `taken` shares of a lot: pro rata, rounded half up to cents, and exactly
 * the lot's cost once every share is taken. Relieving by differences of this cumulative figure
 * is deterministic and adds up to the lot's cost, whatever the sizes of the sales.
 */
function costOfFirst(lot: Lot, taken: Decimal): Decimal {
  if (taken.isEqualTo(lot.quantity)) return lot.cost;
  return roundToCents(lot.cost.times(taken).dividedBy(lot.quantity));
}

/** FIFO lots of one customer and symbol. Pure: a function of the buys and sells fed in order. */
export class FifoLots {
  private readonly lots: Lot[] = [];
  private head = 0;
  private heldTotal = ZERO;

  buy(txnId: string, quantity: Decimal, cost: Decimal): void {
    assert(quantity.isGreaterThan(0) && !cost.isNegative(), `lot ${txnId} needs a positive quantity and a cost`);
    this.lots.push({ txnId, quantity, cost, taken: ZERO });
    this.heldTotal = this.heldTotal.plus(quantity);
  }

  /** Shares held across the lots. */
  held(): Decimal {
    return this.heldTotal;
  }

  /**
   * A forward or reverse split adding `shares` (negative: removing) to what the lots hold: every
   * open lot keeps its cost and its place and takes its part of the new holding, pro rata to its
   * shares left (rounded half up to 8 places; the newest lot takes the exact remainder, so the lots
   * add up to the holding the split leaves). A lot partly sold before keeps only what is left:
   * the shares and cost already relieved are history. Answers false (and changes nothing) when
   * nothing is held or the split would leave nothing: such a split cannot be applied to lots.
   */
  split(shares: Decimal): boolean {
    const after = this.heldTotal.plus(shares);
    if (!this.heldTotal.isGreaterThan(0) || !after.isGreaterThan(0)) return false;
    let left = after;
    for (let i = this.head; i < this.lots.length; i += 1) {
      const lot = this.lots[i]!;
      const quantity =
        i === this.lots.length - 1
          ? left
          : lot.quantity
              .minus(lot.taken)
              .times(after)
              .dividedBy(this.heldTotal)
              .decimalPlaces(QUANTITY_PLACES, Decimal.ROUND_HALF_UP);
      left = left.minus(quantity);
      this.lots[i] = { txnId: lot.txnId, quantity, cost: lot.cost.minus(costOfFirst(lot, lot.taken)), taken: ZERO };
    }
    assert(left.isZero(), 'a split shares out exactly the holding it leaves');
    this.heldTotal = after;
    return true;
  }

  /**
   * Takes `quantity` shares from the oldest lots and answers what each gave; null (and nothing
   * taken) when the lots hold fewer shares: a sale is never given a partial cost.
   */
  sell(quantity: Decimal): LotRelief[] | null {
    assert(quantity.isGreaterThan(0), 'a sale sells a positive quantity');
    if (this.heldTotal.isLessThan(quantity)) return null;
    this.heldTotal = this.heldTotal.minus(quantity);
    const reliefs: LotRelief[] = [];
    let left = quantity;
    while (left.isGreaterThan(0)) {
      const lot = this.lots[this.head];
      assert(lot, 'the lots held enough shares');
      const take = Decimal.min(left, lot.quantity.minus(lot.taken));
      const after = lot.taken.plus(take);
      reliefs.push({
        lotTxnId: lot.txnId,
        quantity: take,
        cost: costOfFirst(lot, after).minus(costOfFirst(lot, lot.taken)),
      });
      lot.taken = after;
      left = left.minus(take);
      if (lot.taken.isEqualTo(lot.quantity)) this.head += 1;
    }
    return reliefs;
  }
}

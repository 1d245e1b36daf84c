//! Points as exact fractions. Tied players share the points of the ranks
//! they cover (three tied for third under 6,5,3,1,0 get 4/3 each), so the
//! points and the tie-breaks built on them are sums of fractions. Kept
//! exact, two players with equal points are equal, whatever the order of
//! their tables; a float sum would tell 13.333333333333332 from
//! 13.333333333333334. Printed everywhere by one rule: a whole number
//! (`216`), or a mixed one (`13 1/3`, `1/2`).

use num_rational::Ratio;
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Sub};

/// A number of points, exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(Ratio<i64>);

impl Points {
    pub const ZERO: Points = Points(Ratio::new_raw(0, 1));

    /// `value` points.
    pub fn whole(value: i64) -> Points {
        Points(Ratio::from_integer(value))
    }

    /// `sum` points shared by `tied` players (at least one).
    pub fn share(sum: u64, tied: usize) -> Points {
        let sum = i64::try_from(sum).unwrap_or(i64::MAX);
        let tied = i64::try_from(tied.max(1)).unwrap_or(i64::MAX);
        Points(Ratio::new(sum, tied))
    }

    /// The nearest float, for plotting: equal points give equal floats,
    /// since each is one division of the same two integers.
    pub fn to_f64(self) -> f64 {
        *self.0.numer() as f64 / *self.0.denom() as f64
    }

    /// The fraction in lowest terms: `40/3`, or `6` when whole.
    pub fn exact(self) -> String {
        if self.0.is_integer() {
            self.0.numer().to_string()
        } else {
            format!("{}/{}", self.0.numer(), self.0.denom())
        }
    }
}

/// `216`, `13 1/3`, `1/2`, `-2 1/2`.
impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (numer, denom) = (*self.0.numer(), *self.0.denom());
        let sign = if numer < 0 { "-" } else { "" };
        let (whole, part) = (
            numer.unsigned_abs() / denom as u64,
            numer.unsigned_abs() % denom as u64,
        );
        let text = match (whole, part) {
            (whole, 0) => format!("{sign}{whole}"),
            (0, part) => format!("{sign}{part}/{denom}"),
            (whole, part) => format!("{sign}{whole} {part}/{denom}"),
        };
        f.pad(&text)
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        self.0 += other.0;
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, other: Points) -> Points {
        Points(self.0 - other.0)
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_points_are_equal_whatever_the_order_of_the_sum() {
        // Given the points of Hal and of Ann (2) at a trial event, each
        // with a share of a three-way tie for third under 6,5,3,1,0: the
        // points of ranks 3, 4 and 5 shared by three.
        let third = Points::share([3, 1, 0].iter().sum(), 3);
        let hal = [third, Points::whole(1), Points::whole(6), Points::whole(5)];
        let ann = [Points::whole(6), Points::whole(3), third, Points::whole(3)];
        // When each is summed in its own order.
        let (hal, ann): (Points, Points) = (hal.into_iter().sum(), ann.into_iter().sum());
        // Then they are equal, and print as one.
        assert_eq!(hal, ann);
        assert_eq!(
            (hal.to_string(), hal.exact()),
            ("13 1/3".into(), "40/3".into())
        );
        assert_eq!(hal.to_f64().to_bits(), ann.to_f64().to_bits());
    }

    #[test]
    fn points_print_whole_or_mixed_with_no_trailing_dot() {
        let cases = [
            (Points::whole(216), "216", "216"),
            (Points::ZERO, "0", "0"),
            (Points::share(11, 2), "5 1/2", "11/2"),
            (Points::share(1, 3), "1/3", "1/3"),
            (Points::ZERO - Points::share(5, 2), "-2 1/2", "-5/2"),
        ];
        for (points, shown, exact) in cases {
            assert_eq!(
                (points.to_string(), points.exact()),
                (shown.into(), exact.into())
            );
        }
        assert_eq!(format!("{:>6}", Points::share(1, 2)), "   1/2");
    }
}

// The truncated-normal corrections of Thurstone-Mosteller (Weng and Lin, equations 7 and
// 8 and their draw versions), written as openskill 5.x's statistics.ts writes them, guards
// included, so that the results agree to rounding: v and w for a win, vt and wt for a tie,
// each with a draw margin t. That includes openskill's weakness: in the far tail (x below
// about -7) its CDF has cancelled to a few ulps, and w leaves [0, 1] before the guard at
// DBL_EPSILON takes over; docs/ratings.md says where that shows.
#ifndef BONEYARD_SERVICES_RATINGS_MODEL_NORMAL_H_
#define BONEYARD_SERVICES_RATINGS_MODEL_NORMAL_H_

#include <cfloat>
#include <cmath>

namespace boneyard::ratings::internal {

inline constexpr double kSqrt2 = 1.4142135623730951;    // Math.sqrt(2)
inline constexpr double kSqrt2Pi = 2.5066282746310002;  // Math.sqrt(2 * Math.PI)

// The standard normal CDF as openskill computes it (0.5 (1 + erf), not erfc): keeps its
// rounding in the far tail, where the guards below decide.
inline double NormalCdf(double x) { return 0.5 * (1.0 + std::erf(x / kSqrt2)); }
inline double NormalPdf(double x) { return std::exp(x * x / -2.0) / kSqrt2Pi; }

// v and w, or vt and wt, come in pairs: each pair shares one evaluation of the CDF and PDF
// (openskill evaluates them again for each function; the values are the same).
struct Correction {
  double v;
  double w;
};

// A win by a margin of x (in pair scales) against draw margin t: openskill's v(x, t) and w(x, t).
inline Correction WinCorrection(double x, double t) {
  const double xt = x - t;
  const double denom = NormalCdf(xt);
  if (denom < DBL_EPSILON) return {-xt, x < 0 ? 1.0 : 0.0};
  const double v = NormalPdf(xt) / denom;
  return {v, v * (v + xt)};
}

// A draw at a difference of x: openskill's vt(x, t) and wt(x, t).
inline Correction DrawCorrection(double x, double t) {
  const double xx = std::abs(x);
  const double b = NormalCdf(t - xx) - NormalCdf(-t - xx);
  const double pdf_lo = NormalPdf(-t - xx);
  const double pdf_hi = NormalPdf(t - xx);
  double vt;
  if (b < 1e-5) {
    vt = x < 0 ? -x - t : -x + t;
  } else {
    const double a = pdf_lo - pdf_hi;
    vt = (x < 0 ? -a : a) / b;
  }
  if (b < DBL_EPSILON) return {vt, 1.0};
  return {vt, ((t - xx) * pdf_hi + (t + xx) * pdf_lo) / b + vt * vt};
}

}  // namespace boneyard::ratings::internal

#endif  // BONEYARD_SERVICES_RATINGS_MODEL_NORMAL_H_

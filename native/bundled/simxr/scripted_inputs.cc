#include "bundled/simxr/scripted_inputs.h"

#include <cmath>

namespace simxr {
namespace {

constexpr double kTwoPi = 6.283185307179586;
constexpr int64_t kMs = 1'000'000;

struct Press {
  int64_t period, start, end;  // ms
};

/** The scheduled press of a button component, or a zero period for components that are not buttons. */
Press pressOf(Hand hand, Component component) {
  const bool left = hand == Hand::Left;
  switch (component) {
    case Component::System:
      return left ? Press{6000, 5000, 5200} : Press{6000, 5500, 5800};
    case Component::A:
      return left ? Press{2000, 1300, 1600} : Press{2000, 300, 700};
    case Component::B:
      return left ? Press{3000, 2500, 2800} : Press{3000, 2000, 2400};
    case Component::X:
      return Press{2000, 500, 800};
    case Component::Y:
      return Press{3000, 1500, 1700};
    case Component::Thumbstick:  // its click
      return left ? Press{4000, 2000, 2200} : Press{3000, 1000, 1200};
    case Component::Thumbrest:  // touched, never clicked
      return left ? Press{2000, 0, 1000} : Press{2000, 1000, 2000};
    default:
      return Press{0, 0, 0};
  }
}

InputSample press(int64_t period, int64_t start, int64_t end, XrTime time) {
  const ButtonSample s = scheduledPress(period * kMs, start * kMs, end * kMs, time);
  return InputSample{s.pressed ? 1.0f : 0.0f, 0.0f, s.lastChangeTime};
}

double phase(XrTime time, int64_t periodMs) {
  const int64_t period = periodMs * kMs;
  int64_t r = time % period;
  if (r < 0) r += period;
  return static_cast<double>(r) / static_cast<double>(period);
}

/** Trigger: a triangle wave 0 → 1 → 0, every 2 s on the left, every 2.5 s half a period apart on the right. */
float triggerValue(Hand hand, XrTime time) {
  const double p = phase(time, hand == Hand::Left ? 2000 : 2500);
  return static_cast<float>(hand == Hand::Left ? 1.0 - std::fabs(2.0 * p - 1.0) : std::fabs(2.0 * p - 1.0));
}

/** Squeeze: a smooth 0 → 1 → 0 every 3 s (left) or 4 s (right). */
float squeezeValue(Hand hand, XrTime time) {
  return static_cast<float>(0.5 - 0.5 * std::cos(kTwoPi * phase(time, hand == Hand::Left ? 3000 : 4000)));
}

/** Thumbstick: the left one circles at radius 0.8 every 2 s; the right one sweeps a Lissajous figure. */
InputSample thumbstick(Hand hand, XrTime time) {
  if (hand == Hand::Left) {
    const double a = kTwoPi * phase(time, 2000);
    return InputSample{static_cast<float>(0.8 * std::sin(a)), static_cast<float>(0.8 * std::cos(a)), 0};
  }
  return InputSample{static_cast<float>(0.9 * std::sin(kTwoPi * phase(time, 3000))),
                     static_cast<float>(0.5 * std::sin(kTwoPi * phase(time, 1500))), 0};
}

/** Trackpad: touched in the first half of every 5 s, the finger circling at radius 0.5; untouched reads 0. */
InputSample trackpad(Hand hand, XrTime time) {
  const ButtonSample touch = scheduledPress(5000 * kMs, 0, 2500 * kMs, time);
  if (!touch.pressed) return InputSample{0.0f, 0.0f, 0};
  const double a = kTwoPi * phase(time, 5000);
  const float x = static_cast<float>(0.5 * std::cos(a));
  return InputSample{hand == Hand::Left ? -x : x, static_cast<float>(0.5 * std::sin(a)), 0};
}

InputSample level(float value) { return InputSample{value, 0.0f, 0}; }
InputSample flag(bool on) { return InputSample{on ? 1.0f : 0.0f, 0.0f, 0}; }

}  // namespace

InputSample sampleInput(Hand hand, Component component, Feature feature, XrTime time) {
  switch (component) {
    case Component::Select:
    case Component::Menu: {
      const ButtonSample s = buttonState(hand, component == Component::Select ? Button::Select : Button::Menu, time);
      return InputSample{s.pressed ? 1.0f : 0.0f, 0.0f, s.lastChangeTime};
    }
    case Component::Trigger: {
      const float v = triggerValue(hand, time);
      if (feature == Feature::Click) return flag(v >= 0.9f);
      if (feature == Feature::Touch) return flag(v > 0.05f);
      return level(v);
    }
    case Component::Squeeze: {
      const float v = squeezeValue(hand, time);
      return level(feature == Feature::Force ? std::fmax(0.0f, (v - 0.5f) * 2.0f) : v);
    }
    case Component::Thumbstick:
    case Component::Trackpad: {
      const InputSample v = component == Component::Thumbstick ? thumbstick(hand, time) : trackpad(hand, time);
      // Not std::hypot: its float version needs glibc 2.35 (prebuilds load on 2.28).
      const bool touched = std::sqrt(v.x * v.x + v.y * v.y) > 0.1f;
      switch (feature) {
        case Feature::TwoAxis:
          return v;
        case Feature::X:
          return level(v.x);
        case Feature::Y:
          return level(v.y);
        case Feature::Touch:
          return flag(touched);
        case Feature::Force:
          return level(touched ? 0.25f : 0.0f);
        case Feature::Click: {
          const Press p = pressOf(hand, component);
          return press(p.period, p.start, p.end, time);
        }
        default:
          return InputSample{};
      }
    }
    case Component::System:
    case Component::A:
    case Component::B:
    case Component::X:
    case Component::Y:
    case Component::Thumbrest: {
      const Press p = pressOf(hand, component);
      // Touched from 100 ms before the press to 100 ms after it (the thumb rest: its schedule is the touch).
      if (feature == Feature::Touch && component != Component::Thumbrest) return press(p.period, p.start - 100, p.end + 100, time);
      return press(p.period, p.start, p.end, time);
    }
    default:
      return InputSample{};
  }
}

}  // namespace simxr

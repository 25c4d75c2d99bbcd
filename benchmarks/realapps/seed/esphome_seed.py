"""Write an ESPHome configuration folder: five home devices, each a YAML config.

The ESPHome dashboard lists the devices found in this folder (a card each, online or
offline), edits their YAML and validates it. None of the devices exists, so all show
offline. The same files every reseed. Usage: python esphome_seed.py CONFIG_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

DEVICES = {
    "living-room-climate": (
        "Living room climate",
        "esp32",
        "esp32dev",
        """
i2c:
  sda: GPIO21
  scl: GPIO22

sensor:
  - platform: bme280_i2c
    address: 0x76
    temperature:
      name: "Temperature"
      filters:
        - offset: -0.8
    humidity:
      name: "Humidity"
    pressure:
      name: "Pressure"
    update_interval: 60s

  - platform: wifi_signal
    name: "WiFi signal"
    update_interval: 120s
""",
    ),
    "garden-irrigation": (
        "Garden irrigation",
        "esp32",
        "esp32dev",
        """
switch:
  - platform: gpio
    pin: GPIO26
    id: valve_lawn
    name: "Lawn valve"
    icon: "mdi:sprinkler"
  - platform: gpio
    pin: GPIO27
    id: valve_beds
    name: "Vegetable beds valve"
    icon: "mdi:sprinkler-variant"

sensor:
  - platform: adc
    pin: GPIO34
    name: "Soil moisture"
    unit_of_measurement: "%"
    attenuation: 12db
    update_interval: 5min

time:
  - platform: homeassistant
    on_time:
      - cron: "0 30 6 * * *"
        then:
          - switch.turn_on: valve_lawn
          - delay: 15min
          - switch.turn_off: valve_lawn
""",
    ),
    "porch-light": (
        "Porch light",
        "esp8266",
        "d1_mini",
        """
light:
  - platform: monochromatic
    name: "Porch light"
    output: porch_pwm
    default_transition_length: 1s

output:
  - platform: esp8266_pwm
    id: porch_pwm
    pin: D1

binary_sensor:
  - platform: gpio
    pin: D5
    name: "Porch motion"
    device_class: motion
""",
    ),
    "hallway-doorbell": (
        "Hallway doorbell",
        "esp8266",
        "d1_mini",
        """
binary_sensor:
  - platform: gpio
    pin:
      number: D2
      mode: INPUT_PULLUP
      inverted: true
    name: "Doorbell button"
    filters:
      - delayed_off: 100ms

switch:
  - platform: gpio
    pin: D7
    name: "Chime"
""",
    ),
    "kitchen-power-plug": (
        "Kitchen power plug",
        "esp8266",
        "esp01_1m",
        """
switch:
  - platform: gpio
    pin: GPIO12
    id: relay
    name: "Kettle plug"

sensor:
  - platform: hlw8012
    sel_pin: GPIO5
    cf_pin: GPIO14
    cf1_pin: GPIO13
    power:
      name: "Kettle power"
    energy:
      name: "Kettle energy"
    update_interval: 10s
""",
    ),
}


def main() -> None:
    folder = Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "secrets.yaml").write_text(
        'wifi_ssid: "HomeNet"\nwifi_password: "correct-horse-battery"\napi_key: "kZ3pRk5Kx2Vq3wH7Yp9t0b1mNcD4eF6gH8iJ0kL2mN4="\nota_password: "ota-demo-2025"\n'
    )
    for name, (friendly, platform, board, body) in DEVICES.items():
        (folder / f"{name}.yaml").write_text(f"""esphome:
  name: {name}
  friendly_name: {friendly}

{platform}:
  board: {board}

logger:

api:
  encryption:
    key: !secret api_key

ota:
  - platform: esphome
    password: !secret ota_password

wifi:
  ssid: !secret wifi_ssid
  password: !secret wifi_password
{body}""")


if __name__ == "__main__":
    main()

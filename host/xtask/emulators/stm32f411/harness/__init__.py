"""The Pocket Arena stm32f411 firmware on an emulated STM32F411CE (Unicorn) with an ST7789."""

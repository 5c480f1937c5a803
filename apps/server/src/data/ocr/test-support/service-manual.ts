/**
 * Three pages of a chiller service manual, written the way such manuals are, with the questions
 * a technician would ask of each page. The scanned-manual tests scan it (render its pages to
 * images, back into a PDF) and ask these questions of the text that OCR gives back.
 */
export const SERVICE_MANUAL = {
  title: 'XR-200 Air-Cooled Chiller Service Manual',
  pages: [
    [
      'Section 6 Troubleshooting',
      'Error E4 Low evaporator water flow. The flow switch has opened for more than 10 seconds while the pump was running. Check that the isolation valves are fully open, clean the inlet strainer and bleed air from the evaporator vents. The minimum flow for the XR-200 is 2.8 litres per second.',
      'Error E7 High discharge pressure. Clean the condenser coils, check that every condenser fan turns freely and measure the fan motor current against the nameplate.',
    ],
    [
      'Section 7 Compressor replacement',
      'Isolate the main supply and lock it off before opening the electrical panel. Recover the refrigerant charge into a clean cylinder; each circuit holds 18 kg of R-410A.',
      'Remove the four compressor mounting bolts and lift the compressor with the eye bolt provided. Torque the new mounting bolts to 35 Nm and replace the suction and discharge gaskets, kit part number PN-7720-G.',
    ],
    [
      'Section 8 Annual maintenance',
      'Replace the filter drier every year or whenever the sight glass shows moisture. Check the crankcase heater draws between 0.3 and 0.5 amps before the season starts.',
      'Record the suction and discharge pressures, the superheat and the subcooling in the service log at every visit. Superheat should settle between 5 and 8 kelvin at full load.',
    ],
  ],
  questions: [
    { question: 'error E4 low water flow strainer', page: 1 },
    { question: 'condenser fan high discharge pressure E7', page: 1 },
    { question: 'compressor mounting bolts torque', page: 2 },
    { question: 'gasket kit part number', page: 2 },
    { question: 'how often replace the filter drier', page: 3 },
    { question: 'crankcase heater current', page: 3 },
  ],
} as const;
